import CLaunchAd
import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdC
@testable import LaunchAdCLI

/// launchad.h's promises, each checked through the C functions themselves: what a NULL handle
/// gets, which calls are LAUNCHAD_ERROR_INVALID_STATE, what the event callback may call, that
/// every entry point is safe from a second thread while the host renders, and that every event
/// reaches C with an id of its own.
final class CAPIPromiseTests: XCTestCase {
    private let invalidState = LAUNCHAD_ERROR_INVALID_STATE.rawValue

    private func create(_ args: [String]) throws -> OpaquePointer {
        var pointers = args.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        let ad = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: args.count) {
                launchad_create(Int32(args.count), $0, nil)
            }
        }
        return try XCTUnwrap(ad, "launchad_create refused \(args)")
    }

    private func clip() throws -> String {
        try Fixtures.make(
            "capi-blue-1s.mp4", ["-f", "lavfi", "-i", "color=c=blue:s=160x90:d=1:r=25", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
    }

    func testANullHandleIsAnInvalidArgumentEverywhere() {
        let invalid = LAUNCHAD_ERROR_INVALID_ARGUMENT.rawValue
        XCTAssertEqual(launchad_prepare(nil, 0), invalid)
        XCTAssertEqual(launchad_attach_buffer(nil, 10, 10), invalid)
        XCTAssertEqual(launchad_attach_x11(nil, 1), invalid)
        XCTAssertEqual(launchad_present(nil), invalid)
        XCTAssertEqual(launchad_render(nil), invalid)
        XCTAssertEqual(launchad_poll_events(nil), invalid)
        XCTAssertEqual(launchad_input(nil, LAUNCHAD_INPUT_KEY_ESCAPE, 0, 0), invalid)
        XCTAssertEqual(launchad_dismiss(nil), invalid)
        XCTAssertEqual(launchad_frame(nil, nil, nil, nil, nil), invalid)
        launchad_destroy(nil)
    }

    func testTheInvalidStatesTheHeaderNames() throws {
        let ad = try create(["play", try clip()])
        defer { launchad_destroy(ad) }
        XCTAssertEqual(launchad_present(ad), invalidState, "present with nothing attached")
        XCTAssertEqual(launchad_frame(ad, nil, nil, nil, nil), invalidState, "launchad_frame without a buffer")
        XCTAssertEqual(launchad_attach_buffer(ad, 160, 90), LAUNCHAD_OK.rawValue)
        XCTAssertEqual(launchad_attach_buffer(ad, 160, 90), invalidState, "a second attach")
        XCTAssertEqual(launchad_present(ad), LAUNCHAD_OK.rawValue)
        XCTAssertEqual(launchad_attach_buffer(ad, 160, 90), invalidState, "an attach after present")
        XCTAssertEqual(launchad_dismiss(ad), LAUNCHAD_OK.rawValue)
        XCTAssertTrue(Wait.until(timeout: 20) { launchad_render(ad) == LAUNCHAD_RENDER_ENDED.rawValue })
        XCTAssertEqual(launchad_render(ad), invalidState, "render after it returned LAUNCHAD_RENDER_ENDED")
    }

    /// The event callback may queue input, dismiss and destroy; anything else is refused, never
    /// deadlocked; a destroy from it waits for the delivering call to return.
    func testWhatTheEventCallbackMayCall() throws {
        final class Seen: @unchecked Sendable {
            // unchecked Sendable: written by the callback on the test's own thread, read after.
            var codes: [String: Int32] = [:]
            var destroyed = false
            var ad: OpaquePointer?
        }
        let seen = Seen()
        let ad = try create(["play", try clip()])
        seen.ad = ad
        let callback: launchad_event_fn = { user, event in
            let seen = Unmanaged<Seen>.fromOpaque(user!).takeUnretainedValue()
            guard let event, let ad = seen.ad else { return }
            if event.pointee.kind == LAUNCHAD_EVENT_FIRST_FRAME {
                seen.codes["render"] = launchad_render(ad)
                seen.codes["prepare"] = launchad_prepare(ad, 0)
                seen.codes["poll"] = launchad_poll_events(ad)
                seen.codes["present"] = launchad_present(ad)
                seen.codes["input"] = launchad_input(ad, LAUNCHAD_INPUT_KEY_MUTE, 0, 0)
                seen.codes["dismiss"] = launchad_dismiss(ad)
            }
            if event.pointee.kind == LAUNCHAD_EVENT_END {
                launchad_destroy(ad)
                seen.destroyed = true
            }
        }
        launchad_set_event_callback(ad, callback, Unmanaged.passUnretained(seen).toOpaque())
        XCTAssertEqual(launchad_attach_buffer(ad, 160, 90), LAUNCHAD_OK.rawValue)
        XCTAssertEqual(launchad_present(ad), LAUNCHAD_OK.rawValue)
        let deadline = Date(timeIntervalSinceNow: 20)
        while !seen.destroyed, Date() < deadline { _ = launchad_render(ad) }
        XCTAssertTrue(seen.destroyed, "the end came and destroy was called from the callback")
        for name in ["render", "prepare", "poll", "present"] { XCTAssertEqual(seen.codes[name], invalidState, name) }
        XCTAssertEqual(seen.codes["input"], LAUNCHAD_OK.rawValue)
        XCTAssertEqual(seen.codes["dismiss"], LAUNCHAD_OK.rawValue)
    }

    /// Issue 42, item 8: inputs and a dismiss from another thread while the host renders crashed
    /// the process (exit 132, 134, 139). Now they queue: the ad ends `ended_by_host`.
    func testInputAndDismissFromAnotherThreadWhileTheHostRenders() throws {
        for _ in 0..<3 {
            let ad = try create(["play", try clip(), "--transition", "none"])
            defer { launchad_destroy(ad) }
            final class Outcome: @unchecked Sendable {
                // unchecked Sendable: written by the callback on the rendering thread, read after it.
                var name: String?
            }
            let outcome = Outcome()
            launchad_set_event_callback(
                ad,
                { user, event in
                    guard let event, event.pointee.kind == LAUNCHAD_EVENT_END else { return }
                    Unmanaged<Outcome>.fromOpaque(user!).takeUnretainedValue().name = String(cString: event.pointee.outcome_name)
                }, Unmanaged.passUnretained(outcome).toOpaque())
            XCTAssertEqual(launchad_attach_buffer(ad, 160, 90), LAUNCHAD_OK.rawValue)
            XCTAssertEqual(launchad_present(ad), LAUNCHAD_OK.rawValue)
            let address = UInt(bitPattern: ad)
            let stop = Locked(false)
            let stopped = Locked(false)
            let other = Thread {
                defer { stopped.change { $0 = true } }
                let ad = OpaquePointer(bitPattern: address)
                var i = 0
                while !stop.withLock({ $0 }) {
                    _ = launchad_input(ad, i % 2 == 0 ? LAUNCHAD_INPUT_FOCUS_LOST : LAUNCHAD_INPUT_FOCUS_GAINED, 0, 0)
                    _ = launchad_input(ad, i % 3 == 0 ? LAUNCHAD_INPUT_MUTE : LAUNCHAD_INPUT_UNMUTE, 0, 0)
                    i += 1
                    if i == 2000 { _ = launchad_dismiss(ad) }
                }
            }
            other.start()
            let deadline = Date(timeIntervalSinceNow: 20)
            while Date() < deadline, launchad_render(ad) != LAUNCHAD_RENDER_ENDED.rawValue {}
            stop.withLock { $0 = true }
            // The host's other thread is done with the handle before it is destroyed.
            XCTAssertTrue(stopped.wait(until: { $0 }, deadline: Date(timeIntervalSinceNow: 10)))
            XCTAssertEqual(outcome.name, "ended_by_host")
        }
    }

    /// Every event reaches C with an id of its own (`kind`); `id` keeps API 0.2's groups.
    func testEveryEventHasItsOwnKind() {
        var kinds: [UInt32: String] = [:]
        for entry in EventCatalog.entries {
            for sample in entry.samples {
                let (id, kind) = CEvent.ids(sample)
                XCTAssertNotEqual(kind, LAUNCHAD_EVENT_OTHER, sample.name)
                if let other = kinds[kind.rawValue], other != sample.name {
                    XCTFail("\(sample.name) and \(other) share kind \(kind.rawValue)")
                }
                kinds[kind.rawValue] = sample.name
                if id != kind {
                    XCTAssertTrue([LAUNCHAD_EVENT_WARNING, LAUNCHAD_EVENT_CACHE, LAUNCHAD_EVENT_DELIVERY, LAUNCHAD_EVENT_ICON].contains(id))
                }
            }
        }
        XCTAssertEqual(kinds.count, Set(EventCatalog.entries.map(\.name)).count)
    }
}

extension CAPIPromiseTests {
    /// Review of issue 38: launchad_dismiss took the handle's lock, so it waited for a render
    /// whose event callback was running (and deadlocked when that callback waited for it). It
    /// only queues: the callback below waits for the other thread's dismiss to return.
    func testDismissNeverWaitsForACallbackRunningElsewhere() throws {
        final class Meeting: @unchecked Sendable {
            // unchecked Sendable: the semaphores are thread-safe; `ad` is set before any thread reads it.
            let atFirstFrame = DispatchSemaphore(value: 0)
            let dismissed = DispatchSemaphore(value: 0)
            var ad: OpaquePointer?
            var metInTime = false
        }
        let meeting = Meeting()
        let ad = try create(["play", try clip(), "--transition", "none"])
        defer { launchad_destroy(ad) }
        meeting.ad = ad
        launchad_set_event_callback(
            ad,
            { user, event in
                guard let event, event.pointee.kind == LAUNCHAD_EVENT_FIRST_FRAME else { return }
                let meeting = Unmanaged<Meeting>.fromOpaque(user!).takeUnretainedValue()
                meeting.atFirstFrame.signal()
                meeting.metInTime = meeting.dismissed.wait(timeout: .now() + 10) == .success
            }, Unmanaged.passUnretained(meeting).toOpaque())
        let address = UInt(bitPattern: ad)
        Thread.detachNewThread {
            meeting.atFirstFrame.wait()
            _ = launchad_dismiss(OpaquePointer(bitPattern: address))
            meeting.dismissed.signal()
        }
        XCTAssertEqual(launchad_attach_buffer(ad, 160, 90), LAUNCHAD_OK.rawValue)
        XCTAssertEqual(launchad_present(ad), LAUNCHAD_OK.rawValue)
        XCTAssertTrue(Wait.until(timeout: 30) { launchad_render(ad) == LAUNCHAD_RENDER_ENDED.rawValue })
        XCTAssertTrue(meeting.metInTime, "dismiss returned while the callback ran on the rendering thread")
    }
}
