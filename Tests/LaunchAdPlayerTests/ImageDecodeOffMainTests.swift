import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// A huge image ad decodes on its own thread: the first-frame deadline holds and the window
/// keeps answering input while it decodes.
final class ImageDecodeOffMainTests: XCTestCase {
    func testAHugeImageGivesWayToTheFallbackOnTimeWhileInputIsAnswered() throws {
        // 8192x8192 of detailed picture: well over a second to decode on this machine.
        let huge = try Fixtures.make("detailed-8192.png", ["-f", "lavfi", "-i", "testsrc2=s=8192x8192", "-frames:v", "1"])
        let fallback = try Fixtures.make("fallback-red.png", ["-f", "lavfi", "-i", "color=c=red:s=200x400", "-frames:v", "1"])
        let h = PlayerHarness()
        var options = PlayOptions(file: huge)
        options.fallback = fallback
        options.wait = 0.5
        options.imageDuration = 0.5
        options.transition = .none
        // A key press 150 ms in, while the huge picture is decoding and nothing is on screen yet.
        let pressed = Locked(0)
        let presser = Thread {
            // Elapsed time is the behaviour: the key comes while the huge picture is still decoding.
            usleep(150_000)
            pressed.withLock { $0 = ProcessClock.nowMs() }
            PlayerHarness.pushKey(SDLK_m)
        }
        presser.start()
        XCTAssertEqual(h.play(options), .completed)

        // Both bounds from their own moment on the events' clock: the key from its press, the
        // fallback from the start of the wait it ended (a loaded machine's slow start of SDL and the
        // window before the wait does not count against it).
        let mute = try XCTUnwrap(h.first("mute"), "the key was handled")
        XCTAssertLessThan(mute.tMs - pressed.withLock { $0 }, 400 - 150, "input answered within a few frames, not after the decode")
        XCTAssertEqual(h.first("fallback")?.string("reason"), "first_frame_timeout")
        let expired = try XCTUnwrap(h.first("wait_expired"))
        let waitBegan = expired.tMs - (try XCTUnwrap(expired.int("waited_ms")))
        let firstFrame = try XCTUnwrap(h.first("first_frame"))
        XCTAssertEqual(firstFrame["fallback"], .bool(true))
        XCTAssertLessThan(firstFrame.tMs - waitBegan, 900, "the fallback is on screen soon after the 0.5 s deadline")
        XCTAssertEqual(colourName(try XCTUnwrap(h.samples.last).pixel), "red")
        XCTAssertNil(h.first("start"), "the huge image never made it to the screen")
    }
}
