import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// Issue 20: queueing beacons (files, fsync) never runs on the thread that emits the player's
/// events (the frame thread); the ad's `end` goes on only once its beacons are queued.
final class TrackingSinkTests: XCTestCase {
    /// A queue whose writes block until `release` is signalled, noting the thread each ran on.
    final class BlockedQueue: BeaconQueue, @unchecked Sendable {  // `events`, `threads` guarded by `lock`
        let release = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var stored: [String] = []
        private var threads: [Thread] = []
        func enqueue(beacons urls: [String], event: String, at: Date, reach: Reach) {
            release.wait()
            release.signal()
            lock.lock(); stored.append(event); threads.append(Thread.current); lock.unlock()
        }
        var events: [String] { lock.lock(); defer { lock.unlock() }; return stored }
        var ranOn: [Thread] { lock.lock(); defer { lock.unlock() }; return threads }
    }

    func testBeaconsAreQueuedOffTheEmittingThreadAndBeforeTheEnd() throws {
        var inline = VASTAd(id: "a")
        var linear = VASTLinear()
        linear.mediaFiles = [VASTMediaFile(url: "https://c.example/a.mp4")]
        linear.tracking = [VASTTracking(event: "start", url: "https://t.example/start")]
        inline.linear = linear
        inline.impressions = ["https://t.example/imp"]
        let ad = try VASTChain(maxWrappers: 5).merged(inline: inline, reach: .any)
        let queue = BlockedQueue()
        let inner = RecordingSink()
        let tracking = TrackingWatcher(
            tracker: VASTTracker(ad: ad, context: MacroContext(timestamp: Date(), cacheBusting: "", deviceUA: "ua")),
            queue: ReachQueue(queue, reach: .any))
        let sink = AdStream(inner, tracking: tracking)
        // The first frame's emit returns although the queue cannot write yet: it is not written
        // on the emitting thread (before, this emit blocked on the queue: the picture froze).
        let returned = expectation(description: "first_frame's emit returned")
        final class Box: @unchecked Sendable { var thread: Thread? }
        let emitter = Box()
        Thread.detachNewThread {
            emitter.thread = Thread.current
            sink.emit(AdEvent(.firstFrame(fallback: false), tMs: 10))
            returned.fulfill()
        }
        wait(for: [returned], timeout: 10)
        XCTAssertEqual(inner.events.map(\.name), ["first_frame"])
        XCTAssertEqual(queue.events, [], "nothing written on the emitting thread")
        // The end waits for the writes, then goes on: everything before it is queued by then.
        let ended = expectation(description: "end passed on")
        Thread.detachNewThread {
            sink.adEnded(.end(RunEnd(outcome: .completed, shownMs: 10)), written: true)
            ended.fulfill()
        }
        queue.release.signal()
        wait(for: [ended], timeout: 10)
        XCTAssertEqual(queue.events, ["impression", "start"])
        XCTAssertEqual(inner.events.map(\.name), ["first_frame", "end"])
        XCTAssertFalse(queue.ranOn.contains { $0 === emitter.thread }, "written off the emitting thread")
    }
}
