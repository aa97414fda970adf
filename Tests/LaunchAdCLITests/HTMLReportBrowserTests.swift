import Foundation
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

/// `validate --format html` opened in a real browser (Debian's chromium, headless, in a network
/// namespace with no network): what it renders and the DOM it builds.
final class HTMLReportBrowserTests: XCTestCase {
    /// 2.5 s of black, then 3.5 s of orange; a 1 kHz tone throughout.
    static func blackStartAd() throws -> String {
        try Fixtures.make(
            "html-black-start.mp4",
            [
                "-f", "lavfi", "-i",
                "color=black:s=320x240:r=25:d=2.5,format=yuv420p[b];color=c=0xff8000:s=320x240:r=25:d=3.5,format=yuv420p[o];[b][o]concat",
                "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:d=6",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", "-movflags", "+faststart"
            ])
    }

    /// Runs chromium headless with no network at all (a fresh network namespace); `what` is
    /// `--dump-dom` or `--screenshot=PATH`.
    private func chromium(_ what: String, _ page: String, size: String = "1100,2400") throws -> Fixtures.Result {
        let r = try Chromium.run(what, page, size: size)
        XCTAssertEqual(r.status, 0, "chromium: \(r.stderr.suffix(2000))")
        return r
    }

    func testTheReportRendersInABrowserWithoutNetwork() throws {
        let ad = try Self.blackStartAd()
        let empty = try Fixtures.write("html-empty.mp4", Data())
        let dir = Fixtures.directory.appendingPathComponent("html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("report.html").path
        let v = try Launchad.run(["validate", ad, empty, "--profile", "iab-ctv", "--format", "html", "--output", page])
        XCTAssertEqual(v.status, 1, v.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["report.html"], "no temporary file left")
        let j = try Launchad.run(["validate", ad, empty, "--profile", "iab-ctv", "--format", "json"])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        let creatives = try XCTUnwrap(json["creatives"] as? [[String: Any]])

        let dom = try chromium("--dump-dom", page).stdout
        // Nothing refers outside the page: every picture is inline, every link is inside it.
        XCTAssertTrue(HTMLReading.elements("img", in: dom).allSatisfy { $0["src"]?.hasPrefix("data:image/png;base64,") == true })
        XCTAssertTrue(HTMLReading.elements("a", in: dom).allSatisfy { $0["href"]?.hasPrefix("#") == true })
        XCTAssertFalse(dom.contains("<script") || dom.contains("<link") || dom.contains("url("))

        // The verdict and every rule row, with the word of its status, as the JSON report has them.
        for (n, c) in creatives.enumerated() {
            let section = try XCTUnwrap(HTMLReading.section("creative-\(n + 1)", in: dom), "section \(n + 1)")
            let status = try XCTUnwrap(c["status"] as? String)
            XCTAssertTrue(section.contains(#"<div class="verdict \#(status)"><span class="word">\#(status.uppercased())</span>"#))
            let rules = try XCTUnwrap(c["rules"] as? [[String: Any]])
            let rows = HTMLReading.elements("tr", class: "rule", in: section)
            XCTAssertEqual(rows.count, rules.count)
            for rule in rules {
                let name = try XCTUnwrap(rule["rule"] as? String), s = try XCTUnwrap(rule["status"] as? String)
                XCTAssertTrue(
                    section.contains(#"data-rule="\#(name)"><td>\#(name)</td><td><span class="status \#(s)">\#(s.uppercased())</span>"#),
                    name)
            }
        }
        // The empty file has its failing section.
        XCTAssertTrue(try XCTUnwrap(HTMLReading.section("creative-2", in: dom)).contains("is empty"))

        let first = try XCTUnwrap(HTMLReading.section("creative-1", in: dom))
        let analysis = try XCTUnwrap((creatives[0]["facts"] as? [String: Any])?["analysis"] as? [String: Any])
        // The integrated-loudness marker sits at the value the JSON report gives.
        let integrated = try XCTUnwrap(analysis["integrated_loudness"] as? Double)
        let marker = try XCTUnwrap(HTMLReading.elements("line", class: "integrated", in: first).first?["y1"].flatMap(Double.init))
        let grid = HTMLReading.elements("line", class: "grid-y", in: first)
        XCTAssertEqual(
            try XCTUnwrap(HTMLReading.value(at: marker, marks: grid, valueKey: "data-lufs", positionKey: "y1")), integrated, accuracy: 0.05)
        // The black start is drawn from the start of the timeline to where the JSON report says it ends.
        let black = try XCTUnwrap((analysis["black"] as? [[String: Any]])?.first)
        XCTAssertEqual(try XCTUnwrap(black["start"] as? Double), 0, accuracy: 0.05)
        let timeline = try XCTUnwrap(first.components(separatedBy: #"<svg class="timeline""#).last)
        let ticks = HTMLReading.elements("text", class: "tick-x", in: timeline)
        let rect = try XCTUnwrap(HTMLReading.elements("rect", class: "black", in: timeline).first)
        let x = try XCTUnwrap(rect["x"].flatMap(Double.init)), w = try XCTUnwrap(rect["width"].flatMap(Double.init))
        XCTAssertEqual(try XCTUnwrap(HTMLReading.value(at: x, marks: ticks, valueKey: "data-seconds", positionKey: "x")), 0, accuracy: 0.02)
        XCTAssertEqual(
            try XCTUnwrap(HTMLReading.value(at: x + w, marks: ticks, valueKey: "data-seconds", positionKey: "x")),
            try XCTUnwrap(black["end"] as? Double), accuracy: 0.05)

        // The pictures decode: 8 of them, the first ones black, the later ones orange, in the screenshot.
        let pictures = HTMLReading.elements("img", in: first)
        XCTAssertEqual(pictures.count, 8)
        let shot = dir.appendingPathComponent("shot.png").path
        _ = try chromium("--screenshot=\(shot)", page)
        let image = try ImageLoader.load(path: shot)
        var orange = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let r = Int(image.pixels[i]), g = Int(image.pixels[i + 1]), b = Int(image.pixels[i + 2])
            if abs(r - 255) < 24, abs(g - 128) < 24, b < 24 { orange += 1 }
        }
        // Pictures from 3 s on are orange: 4 of the 8 (at 3, 3.75, 4.5, 5.25 s), each 320x240 on the page.
        XCTAssertGreaterThan(orange, 3 * 320 * 240, "orange pixels in the screenshot: \(orange)")
        XCTAssertLessThan(orange, 5 * 320 * 240, "orange pixels in the screenshot: \(orange)")
    }
}
