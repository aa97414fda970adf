import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// A colour comes back as it was encoded, whichever matrix the file was made with: BT.709 for HD,
/// BT.601 for SD, and an untagged file read as BT.601 up to 576 lines and BT.709 above.
final class ColourMatrixTests: XCTestCase {
    /// One second of a solid 0xC86432 (200, 100, 50) at `size`, converted with `matrix`, tagged or not.
    func clip(size: String, matrix: String, tagged: Bool) throws -> String {
        var args = [
            "-f", "lavfi", "-i", "color=c=0xC86432:s=\(size):r=25:d=1",
            "-vf", "scale=out_color_matrix=\(matrix):out_range=tv,format=yuv420p", "-c:v", "libx264", "-qp", "0"
        ]
        if tagged { args += ["-colorspace", matrix == "bt709" ? "bt709" : "smpte170m"] }
        return try Fixtures.make("colour-\(size)-\(matrix)-\(tagged ? "tagged" : "untagged").mp4", args)
    }

    func assertColour(_ file: String, line: UInt = #line) {
        let h = PlayerHarness()
        var options = PlayOptions(file: file)
        options.size = Size(width: 320, height: 180)
        options.transition = .none
        options.showSkip = false
        XCTAssertEqual(h.play(options), .completed, line: line)
        let first = h.first("first_frame")?.tMs ?? 0
        let settled = h.samples.filter { $0.nowMs - first > 400 && $0.pixel.count >= 3 }
        XCTAssertFalse(settled.isEmpty, line: line)
        for s in settled {
            let off = zip(s.pixel.prefix(3), [200, 100, 50]).map { abs(Int($0) - $1) }.max() ?? 255
            XCTAssertLessThanOrEqual(off, 6, "\(file): \(Array(s.pixel.prefix(3)))", line: line)
        }
    }

    func testTaggedMatricesAreHonoured() throws {
        assertColour(try clip(size: "1280x720", matrix: "bt709", tagged: true))
        assertColour(try clip(size: "640x480", matrix: "bt601", tagged: true))
        assertColour(try clip(size: "1280x720", matrix: "bt601", tagged: true))
    }

    func testUntaggedFilesFollowTheirHeight() throws {
        assertColour(try clip(size: "1280x720", matrix: "bt709", tagged: false))
        assertColour(try clip(size: "640x480", matrix: "bt601", tagged: false))
    }
}
