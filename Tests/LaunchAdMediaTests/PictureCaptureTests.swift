import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdMedia

/// What `validate --format html` gets from the one decode: pictures and loudness series.
final class PictureCaptureTests: XCTestCase {
    override func setUp() { MediaLog.configure() }

    func testThePassTakesEvenlySpacedPicturesAndTheLoudnessSeriesForTheHTMLReport() throws {
        // 2 s black, then 2 s red; a steady tone throughout.
        let ad = try Fixtures.make(
            "analysis-pictures.mp4",
            [
                "-f", "lavfi", "-i",
                "color=black:s=320x180:r=25:d=2,format=yuv420p[b];color=red:s=320x180:r=25:d=2,format=yuv420p[r];[b][r]concat",
                "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:d=4", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-ac", "2"
            ])
        let facts = try CreativeAnalyzer(path: ad, pictures: PictureRequest(count: 4, box: Size(width: 160, height: 160))).run()
        XCTAssertEqual(facts.analysis.pictures.map(\.seconds), [0, 1, 2, 3], "the picture on screen at 0, d/4, 2d/4, 3d/4")
        for (n, p) in facts.analysis.pictures.enumerated() {
            XCTAssertEqual([p.width, p.height], [160, 90])
            let file = try Fixtures.write("analysis-picture-\(n).png", Data(p.png))
            let image = try ImageLoader.load(path: file)
            XCTAssertEqual([image.width, image.height], [160, 90])
            let centre = (45 * 160 + 80) * 4
            let rgb = Array(image.pixels[centre..<centre + 3]).map(Int.init)
            if n < 2 {
                XCTAssertLessThan(rgb.max()!, 30, "picture \(n) is black: \(rgb)")
            } else {
                XCTAssertGreaterThan(rgb[0], 200, "picture \(n) is red: \(rgb)")
                XCTAssertLessThan(rgb[1], 40, "picture \(n) is red: \(rgb)")
            }
        }
        // One short-term reading per 100 ms; a steady tone reads what the integrated value says.
        let series = facts.analysis.shortTermLoudness
        XCTAssertEqual(Double(series.count), 40, accuracy: 3)
        XCTAssertEqual(series.last?.seconds ?? 0, 4, accuracy: 0.1)
        XCTAssertEqual(series.last?.lufs ?? 0, facts.analysis.integratedLoudness ?? 0, accuracy: 0.5)
        XCTAssertEqual(Double(facts.analysis.momentaryLoudness.count), 40, accuracy: 3)
        // Taking pictures changes none of the figures the rules read.
        var plain = facts.analysis
        plain.pictures = []
        XCTAssertEqual(plain, try CreativeAnalyzer(path: ad).run().analysis)
    }
}
