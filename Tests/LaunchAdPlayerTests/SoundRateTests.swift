import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdPlayer

/// A file may declare any sample rate. The sound device was opened at the stream's own: at 1 Hz
/// its thread slept a 1,024-sample buffer (17 minutes), so `play` hung after its `end`, closing
/// the device, and a SIGTERM no longer ended it. Sound at a rate no sound has is not played:
/// the pictures play silently and `audio_unavailable` says why.
final class SoundRateTests: XCTestCase {
    /// One second of testsrc2 with PCM sound that declares 1 Hz (a WAV's header, copied as is).
    static func oneHertz() throws -> String {
        func le(_ v: UInt32, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
        let data = [UInt8](repeating: 0x11, count: 16_000)
        var wav = Array("RIFF".utf8) + le(UInt32(36 + data.count), 4) + Array("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(1, 2)
        wav += le(1, 4) + le(2, 4) + le(2, 2) + le(16, 2) + Array("data".utf8) + le(UInt32(data.count), 4) + data
        let sound = try Fixtures.write("one-hertz.wav", Data(wav))
        return try Fixtures.make(
            "one-hertz-sound.mkv",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=1", "-i", sound, "-map", "0:v", "-map", "1:a", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", "-c:a", "copy", "-t", "1"
            ])
    }

    func testSoundAtOneHertzIsNotPlayedAndTheRunEnds() throws {
        let clip = try Self.oneHertz()
        setenv("SDL_VIDEODRIVER", "dummy", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        let sink = RecordingSink()
        let player = AdPlayer(config: PlayerConfig(PlayOptions(file: clip)), events: sink)
        let began = Date()
        // Before, this call did not return (the suite's watchdog ends a silent run).
        _ = player.run()
        XCTAssertLessThan(Date().timeIntervalSince(began), 15, "the sound device at 1 Hz held the run")
        let unavailable = sink.events.first { $0.name == "audio_unavailable" }
        XCTAssertEqual(
            unavailable?["message"], .string("playing without sound: its sample rate, 1 Hz, is outside 1000-768000 Hz"),
            "\(sink.events.map(\.name))")
        XCTAssertEqual(sink.events.last?.name, "end")
    }
}
