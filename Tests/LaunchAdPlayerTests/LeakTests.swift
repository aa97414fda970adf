import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Two hundred plays in one process: resident memory stays within a fixed bound after warm-up,
/// so nothing a play makes (decoders, frames, textures, windows, threads) is left behind.
final class LeakTests: XCTestCase {
    static func residentBytes() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    func testTwoHundredPlaysKeepResidentMemoryBounded() throws {
        // Three frames with sound, and a picture: the video engine and the image path both run.
        let clip = try Fixtures.make(
            "leak-clip.mp4",
            [
                "-f", "lavfi", "-i", "testsrc=s=160x120:r=25:d=0.12", "-f", "lavfi", "-i",
                "sine=f=440:sample_rate=48000:d=0.12", "-c:v", "libx264", "-pix_fmt",
                "yuv420p", "-c:a", "aac", "-shortest"
            ])
        let picture = try Fixtures.make("leak-picture.png", ["-f", "lavfi", "-i", "testsrc=s=160x120", "-frames:v", "1"])
        func play(_ i: Int) {
            let h = PlayerHarness()
            var options = PlayOptions(file: i % 4 == 3 ? picture : clip)
            options.size = Size(width: 160, height: 120)
            options.transition = .none
            options.imageDuration = 0.1
            XCTAssertEqual(h.play(options), .completed, "play \(i): \(h.events.map { $0.jsonLine() })")
            XCTAssertEqual(h.events("end").count, 1)
        }
        for i in 0..<20 { play(i) }
        let threadsBefore = Self.threadCount()
        let before = Self.residentBytes()
        let start = Date()
        var peak = before
        for i in 20..<200 {
            play(i)
            peak = max(peak, Self.residentBytes())
        }
        let after = Self.residentBytes()
        let mb = { (b: Int) in String(format: "%.1f MB", Double(b) / 1_048_576) }
        print(
            "LeakTests: RSS after warm-up \(mb(before)), after 200 plays \(mb(after)), peak \(mb(peak)), "
                + "180 plays in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        // Each play allocates a few MB (decoder, pictures, textures); a leak of even 100 kB a play
        // would add 18 MB over the 180 measured plays.
        XCTAssertLessThan(after - before, 12 * 1_048_576, "RSS grew from \(mb(before)) to \(mb(after))")
        XCTAssertLessThan(peak - before, 24 * 1_048_576, "peak \(mb(peak)) against \(mb(before))")
        XCTAssertLessThanOrEqual(Self.threadCount(), threadsBefore + 2, "no threads left behind")
    }
}
