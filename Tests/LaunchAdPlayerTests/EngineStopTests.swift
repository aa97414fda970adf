import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// A stopped engine leaves no thread behind, whatever it was doing: each stop is followed within
/// a second by the end of every `launchad-*` thread it started.
final class EngineStopTests: XCTestCase {
    /// Names of this process's live engine threads (read, video, audio), from /proc.
    private func engineThreads() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { $0.hasPrefix("launchad-") }
    }

    private func assertStopsWithinASecond(_ engine: PlaybackEngine, _ what: String) {
        engine.stop(wait: true)
        Wait.until(timeout: 1) { engineThreads().isEmpty }
        XCTAssertEqual(engineThreads(), [], "threads still alive 1 s after a stop \(what)")
    }

    override func setUp() { XCTAssertEqual(engineThreads(), [], "no engine thread before the test") }

    /// An open that waits on a server that accepted the connection and never answers (read, as
    /// in the product, through launchad's HTTP client: FFmpeg has no network of its own).
    func testStopMidOpen() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        XCTAssertEqual(
            withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }, 0)
        XCTAssertEqual(listen(fd, 4), 0)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        let port = UInt16(bigEndian: addr.sin_port)

        let network = HTTPByteSource.opener(client: HTTPClient(connectTimeout: 30, totalTimeout: 60), maxBytes: 1_000_000, reach: .any)
        let engine = PlaybackEngine(source: "http://127.0.0.1:\(port)/ad.mp4", muted: true, events: RecordingSink(), network: network)
        engine.start()
        // The engine's request reaching the server: from here the open waits on an answer that never comes.
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&waiting, 1, 10_000), 1, "the engine connected")
        let connection = accept(fd, nil, nil)
        defer { close(connection) }
        guard case .opening = engine.state else { return XCTFail("the open should still be waiting, got \(engine.state)") }
        XCTAssertEqual(engineThreads(), ["launchad-read"])
        assertStopsWithinASecond(engine, "mid-open")
    }

    /// Decoding a long clip with sound, the picture queue full because nobody takes pictures.
    func testStopMidDecode() throws {
        let clip = try Fixtures.colourBars(seconds: 8, size: "640x360")
        let engine = PlaybackEngine(source: clip, muted: true, events: RecordingSink())
        engine.start()
        // Room for a loaded machine (it ends as soon as the queue is full): the full queue is what is checked.
        Wait.until(timeout: 20) { engine.queuedTimestamps.count >= 3 }
        XCTAssertEqual(engine.queuedTimestamps.count, 3, "the decoder filled the picture queue")
        XCTAssertTrue(engineThreads().contains("launchad-video"))
        assertStopsWithinASecond(engine, "mid-decode")
    }

    /// Playing: pictures taken as they come due, audio queued to the device.
    func testStopMidPlay() throws {
        let clip = try Fixtures.colourBars(seconds: 8, size: "640x360")
        // A screen's loop: woken by the engine when a picture is ready, a frame's time at most.
        let woken = DispatchSemaphore(value: 0)
        let engine = PlaybackEngine(source: clip, muted: true, events: RecordingSink()) { woken.signal() }
        engine.start()
        engine.setPaused(false)
        // A second of play from its first picture: a loaded machine's slow open (ThreadSanitizer's
        // run among them) does not eat into it.
        let opened = Date()
        var taken = 0
        while taken == 0, Date().timeIntervalSince(opened) < 20 {
            if engine.popPictures(1) != nil { taken += 1 } else { _ = woken.wait(timeout: .now() + .milliseconds(20)) }
        }
        let began = Date()
        while Date().timeIntervalSince(began) < 1 {
            if engine.popPictures(1) != nil { taken += 1 }
            _ = woken.wait(timeout: .now() + .milliseconds(20))
        }
        XCTAssertGreaterThan(taken, 10)
        assertStopsWithinASecond(engine, "mid-play")
    }
}
