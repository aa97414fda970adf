import LaunchAdCLI
import LaunchAdCore
import XCTest

@testable import LaunchAdEngine

final class PreviewOptionsTests: XCTestCase {
    func testPreviewArguments() throws {
        guard
            case .preview(let o) = try Command.parse([
                "preview", "ad.mp4", "--out", "g.png", "--devices", "ipad,desktop", "--at", "2.5",
                "--fit", "fill", "--skip-after", "3"
            ])
        else { return XCTFail() }
        XCTAssertEqual(o.file, "ad.mp4")
        XCTAssertEqual(o.out, "g.png")
        XCTAssertEqual(o.devices.map(\.name), ["ipad", "desktop"])
        XCTAssertEqual(o.at, 2.5)
        XCTAssertEqual(o.play.fit, .fill)
        XCTAssertEqual(o.play.skipAfter, 3)
        guard case .preview(let d) = try Command.parse(["preview", "ad.mp4", "--out", "g.png"]) else { return XCTFail() }
        XCTAssertEqual(d.devices, PreviewDevice.all)
        XCTAssertEqual(d.at, 0)
        XCTAssertThrowsError(try Command.parse(["preview", "ad.mp4", "--out", "g.png", "--at", "-1"]))
        XCTAssertThrowsError(try Command.parse(["preview", "a.mp4", "b.mp4", "--out", "g.png"])) { e in
            XCTAssertEqual((e as? UsageError)?.message, "preview takes one FILE, got 2")
        }
        guard case .help(let help) = try Command.parse(["help", "preview"]) else { return XCTFail() }
        XCTAssertTrue(help.contains("--devices LIST|all"))
    }
}
