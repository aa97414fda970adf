import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// The HTML report rendered from data alone: what a reader sees, and where the plots put things.
final class HTMLReportTests: XCTestCase {
    /// A CTV creative that starts with 2.5 s of black, two pictures, a loudness series; and an unreadable file.
    private func sample() -> ValidationReport {
        var facts = madeUpFacts(width: 640, height: 360, duration: 6)
        facts.probe.file = "spring & <sale>.mp4"
        facts.analysis.black = [Interval(0, 2.5)]
        facts.analysis.decodeErrors = [DecodeIssue(seconds: 4.5, stream: 0, message: "damaged picture")]
        // ebur128 reports its floor until the 3 s window has filled.
        facts.analysis.shortTermLoudness =
            [LoudnessPoint(0.1, -120.7), LoudnessPoint(2.9, -120.7)]
            + stride(from: 3.0, through: 6, by: 0.1).map { LoudnessPoint($0, -24.3) }
        facts.analysis.pictures = [
            CreativeStill(seconds: 0, width: 4, height: 2, png: [0x89, 0x50, 0x4e, 0x47, 1, 2]),
            CreativeStill(seconds: 3, width: 4, height: 2, png: [0x89, 0x50, 0x4e, 0x47, 3, 4])
        ]
        return ValidationReport([
            .evaluate(facts, against: Spec.profile(named: "iab-ctv")!),
            .unreadable(file: "notes.txt", spec: "iab-ctv", reason: "cannot open notes.txt: Invalid data found")
        ])
    }

    func testThePageNeedsNothingFromOutside() {
        let html = sample().render(.html)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        for banned in ["<script", "<link", "url(", "@import", "src=\"http", "href=\"http", "<iframe", "<object"] {
            XCTAssertFalse(html.contains(banned), banned)
        }
        let sources = HTMLReading.elements("img", in: html).map { $0["src"] ?? "" }
        XCTAssertEqual(sources.count, 2)
        XCTAssertTrue(sources.allSatisfy { $0.hasPrefix("data:image/png;base64,") })
        // The pictures are the bytes given, in order.
        XCTAssertEqual(
            sources.map { Data(base64Encoded: String($0.dropFirst(22))).map { [UInt8]($0) } },
            [[0x89, 0x50, 0x4e, 0x47, 1, 2], [0x89, 0x50, 0x4e, 0x47, 3, 4]])
        XCTAssertTrue(html.contains("<figcaption>0:03.0</figcaption>"), html)
    }

    /// A captioned creative: each contact-sheet picture shows the cue on screen at its time, and
    /// only that one (none where no cue shows).
    func testEachPictureShowsTheCueOnScreenAtItsTime() throws {
        var report = sample()
        let cues = CaptionTrack([CaptionCue(startMs: 2500, endMs: 4000, text: "Spring <sale>\nnow on")])
        report.creatives[0].facts?.captions = [CaptionFacts(kind: "webvtt", language: "en", cues: 1, lastEndMs: 4000, track: cues)]
        let html = report.render(.html)
        let captions = HTMLReading.elements("figcaption", in: html).count
        XCTAssertEqual(captions, 2)
        XCTAssertTrue(html.contains("<figcaption>0:00.0</figcaption>"), "no cue at 0 s")
        XCTAssertTrue(html.contains(#"<figcaption>0:03.0<p class="cue">Spring &lt;sale&gt;<br>now on</p></figcaption>"#), html)
    }

    func testSummaryLinksEachSectionAndEveryRuleHasARowWithItsWord() throws {
        let report = sample()
        let html = report.render(.html)
        let links = HTMLReading.elements("a", in: html).compactMap { $0["href"] }
        XCTAssertEqual(links, ["#creative-1", "#creative-2"])
        let first = try XCTUnwrap(HTMLReading.section("creative-1", in: html))
        XCTAssertTrue(
            first.contains(
                #"<div class="verdict fail"><span class="word">FAIL</span> <span class="file">spring &amp; &lt;sale&gt;.mp4</span>"#), first
        )
        let rows = HTMLReading.elements("tr", class: "rule", in: first)
        XCTAssertEqual(rows.compactMap { $0["data-rule"] }, report.creatives[0].results.map(\.rule))
        for r in report.creatives[0].results {
            XCTAssertTrue(
                first.contains(
                    #"data-rule="\#(r.rule)"><td>\#(r.rule)</td><td><span class="status \#(r.status.rawValue)">\#(r.status.rawValue.uppercased())</span>"#
                ), r.rule)
        }
        // The file that could not be read has its failing section too, with the reason, and nothing else to show.
        let second = try XCTUnwrap(HTMLReading.section("creative-2", in: html))
        XCTAssertTrue(
            second.contains(
                #"data-rule="readable"><td>readable</td><td><span class="status fail">FAIL</span></td><td>cannot open notes.txt: Invalid data found</td>"#
            ), second)
        XCTAssertFalse(second.contains("<svg"))
    }

    func testTheIntegratedMarkerAndTheTargetBandSitAtTheirValues() throws {
        let html = try XCTUnwrap(HTMLReading.section("creative-1", in: sample().render(.html)))
        let grid = HTMLReading.elements("line", class: "grid-y", in: html)
        XCTAssertGreaterThanOrEqual(grid.count, 3)
        let marker = try XCTUnwrap(HTMLReading.elements("line", class: "integrated", in: html).first)
        let y = try XCTUnwrap(marker["y1"].flatMap(Double.init))
        let lufs = try XCTUnwrap(HTMLReading.value(at: y, marks: grid, valueKey: "data-lufs", positionKey: "y1"))
        XCTAssertEqual(lufs, -24.3, accuracy: 0.05)
        // iab-ctv: -24 +/-2, a band from -26 to -22.
        let band = try XCTUnwrap(HTMLReading.elements("rect", class: "target-band", in: html).first)
        let top = try XCTUnwrap(band["y"].flatMap(Double.init)), height = try XCTUnwrap(band["height"].flatMap(Double.init))
        XCTAssertEqual(
            try XCTUnwrap(HTMLReading.value(at: top, marks: grid, valueKey: "data-lufs", positionKey: "y1")), -22, accuracy: 0.05)
        XCTAssertEqual(
            try XCTUnwrap(HTMLReading.value(at: top + height, marks: grid, valueKey: "data-lufs", positionKey: "y1")), -26, accuracy: 0.05)
        // True peak -8.5 against the -6 limit.
        XCTAssertEqual(HTMLReading.elements("rect", class: "peak", in: html).first?["data-dbtp"], "-8.50")
        XCTAssertEqual(HTMLReading.elements("line", class: "peak-limit", in: html).first?["data-dbtp"], "-6.0")
    }

    func testTheShortTermLineStartsAtItsFirstRealReading() throws {
        let html = try XCTUnwrap(HTMLReading.section("creative-1", in: sample().render(.html)))
        let line = try XCTUnwrap(HTMLReading.elements("polyline", class: "short-term", in: html).first?["points"])
        let firstX = try XCTUnwrap(line.split(separator: " ").first?.split(separator: ",").first.flatMap { Double($0) })
        let ticks = HTMLReading.elements("text", class: "tick-x", in: html)
        XCTAssertEqual(
            try XCTUnwrap(HTMLReading.value(at: firstX, marks: ticks, valueKey: "data-seconds", positionKey: "x")), 3, accuracy: 0.02)
    }

    func testABlackStartIsDrawnAtTheStartOfTheTimeline() throws {
        let html = try XCTUnwrap(HTMLReading.section("creative-1", in: sample().render(.html)))
        let timeline = try XCTUnwrap(html.components(separatedBy: #"<svg class="timeline""#).last)
        let ticks = HTMLReading.elements("text", class: "tick-x", in: timeline)
        let black = try XCTUnwrap(HTMLReading.elements("rect", class: "black", in: timeline).first)
        let x = try XCTUnwrap(black["x"].flatMap(Double.init)), w = try XCTUnwrap(black["width"].flatMap(Double.init))
        XCTAssertEqual(try XCTUnwrap(HTMLReading.value(at: x, marks: ticks, valueKey: "data-seconds", positionKey: "x")), 0, accuracy: 0.02)
        XCTAssertEqual(
            try XCTUnwrap(HTMLReading.value(at: x + w, marks: ticks, valueKey: "data-seconds", positionKey: "x")), 2.5, accuracy: 0.02)
        let error = try XCTUnwrap(HTMLReading.elements("line", class: "decode-error", in: timeline).first)
        XCTAssertEqual(
            try XCTUnwrap(HTMLReading.value(at: Double(error["x1"]!)!, marks: ticks, valueKey: "data-seconds", positionKey: "x")), 4.5,
            accuracy: 0.02)
        XCTAssertTrue(html.contains("<li>black 0:00.0–0:02.5 (2.5 s)</li>"), html)
    }

    func testQualityFindingsAreDrawnInTheirOwnLanesAtTheirTimes() throws {
        var facts = try XCTUnwrap(sample().creatives[0].facts)
        facts.analysis.signal.freezes = [Interval(1, 2.2)]
        for (i, p) in facts.analysis.signal.phase.enumerated() where p.seconds >= 4 && p.seconds + p.duration <= 5.0001 {
            facts.analysis.signal.phase[i].phase = -1
        }
        let report = ValidationReport([.evaluate(facts, against: .iabCTV)])
        let html = try XCTUnwrap(HTMLReading.section("creative-1", in: report.render(.html)))
        let timeline = try XCTUnwrap(html.components(separatedBy: #"<svg class="timeline""#).last)
        let ticks = HTMLReading.elements("text", class: "tick-x", in: timeline)
        for (rule, start, end) in [("freeze_frames", 1.0, 2.2), ("audio_phase", 4.0, 5.0)] {
            let rect = try XCTUnwrap(HTMLReading.elements("rect", class: rule, in: timeline).first, rule)
            let x = try XCTUnwrap(rect["x"].flatMap(Double.init)), w = try XCTUnwrap(rect["width"].flatMap(Double.init))
            XCTAssertEqual(
                try XCTUnwrap(HTMLReading.value(at: x, marks: ticks, valueKey: "data-seconds", positionKey: "x")), start, accuracy: 0.03,
                rule)
            XCTAssertEqual(
                try XCTUnwrap(HTMLReading.value(at: x + w, marks: ticks, valueKey: "data-seconds", positionKey: "x")), end, accuracy: 0.03,
                rule)
        }
        // A lane for every quality rule with a place in time, labelled, even when it found nothing.
        for label in ["freeze", "flashes", "interlace", "range", "a/v end", "phase"] {
            XCTAssertTrue(timeline.contains(#"text-anchor="end">\#(label)</text>"#), label)
        }
        XCTAssertTrue(html.contains("<li>freeze_frames 0:01.0–0:02.2 (1.2 s)</li>"), html)
        XCTAssertTrue(html.contains(#"<tr class="rule fail" data-rule="freeze_frames">"#), html)
    }

    func testOtherFormatsAreUnchangedByTheSeriesAndPictures() {
        var plain = sample()
        plain.creatives[0].facts?.analysis.shortTermLoudness = []
        plain.creatives[0].facts?.analysis.pictures = []
        for format in [ReportFormat.text, .json, .junit] {
            XCTAssertEqual(sample().render(format), plain.render(format), "\(format)")
        }
        XCTAssertNotEqual(sample().render(.html), plain.render(.html))
    }

    /// A tag behind two wrappers whose InLine lists a VPAID file and two MP4s; the MP4s were validated.
    private func vastSample() throws -> ValidationReport {
        func wrapper(_ system: String, next: String) -> VASTAd {
            var ad = VASTAd(id: system)
            ad.adSystem = system
            ad.wrapper = VASTWrapper(tagURI: next)
            return ad
        }
        func media(_ url: String, _ type: String, _ w: Int, _ h: Int, api: String? = nil) -> VASTMediaFile {
            var m = VASTMediaFile(url: url)
            m.type = type; m.width = w; m.height = h; m.bitrate = 2000; m.codec = "avc1.64001F"; m.apiFramework = api
            return m
        }
        var inline = VASTAd(id: "in")
        inline.adSystem = "Creative <Server>"
        var linear = VASTLinear()
        linear.duration = 15
        linear.mediaFiles = [
            media("https://cdn.example/ad.js", "application/javascript", 1920, 1080, api: "VPAID"),
            media("https://cdn.example/ad-720.mp4", "video/mp4", 1280, 720),
            media("https://cdn.example/ad-1080.mp4?a=1&b=2", "video/mp4", 1920, 1080)
        ]
        inline.linear = linear
        var chain = VASTChain(maxWrappers: 5, tagURL: "https://ads.example/tag.xml")
        XCTAssertEqual(try chain.step(wrapper("Exchange", next: "https://ssp.example/w2.xml")), "https://ssp.example/w2.xml")
        let second = try chain.read(VASTDocument(version: "3.0", ads: [wrapper("SSP", next: "https://creative.example/inline.xml")]))
        XCTAssertEqual(try chain.step(second), "https://creative.example/inline.xml")
        let last = try chain.read(VASTDocument(version: "4.1", ads: [inline]))
        XCTAssertNil(try chain.step(last))
        var facts = VASTTagFacts(
            source: "https://ads.example/tag.xml", maxWrappers: 5,
            capabilities: MediaCapabilities(demuxers: ["mov"], decoders: ["h264", "aac"]), window: Size(width: 1920, height: 1080))
        facts.document = VASTDocument(version: "4.2", ads: [wrapper("Exchange", next: "https://ssp.example/w2.xml")])
        facts.resolved = try chain.merged(inline: last, reach: .any)
        let vast = VASTReportFacts(
            facts,
            sections: [
                "https://cdn.example/ad-720.mp4": (ValidationReport.anchor(1), .warn),
                "https://cdn.example/ad-1080.mp4?a=1&b=2": (ValidationReport.anchor(2), .pass)
            ])
        let tag = CreativeReport(file: facts.source, spec: "vast", results: VASTRules.evaluate(facts), facts: nil, vast: vast)
        return ValidationReport([
            tag,
            .unreadable(file: "https://cdn.example/ad-720.mp4", spec: "iab-ctv", reason: "made up"),
            .unreadable(file: "https://cdn.example/ad-1080.mp4?a=1&b=2", spec: "iab-ctv", reason: "made up")
        ])
    }

    func testAVASTTagShowsItsWrapperChainAndItsMediaFileLadder() throws {
        let report = try vastSample()
        let html = report.render(.html)
        let tag = try XCTUnwrap(HTMLReading.section("creative-1", in: html))
        // The chain in order, the InLine last, each with its version and AdSystem (escaped).
        let chain = try XCTUnwrap(tag.components(separatedBy: #"<ol class="chain">"#).last?.components(separatedBy: "</ol>").first)
        let items = chain.components(separatedBy: "<li ").dropFirst()
        XCTAssertEqual(items.count, 3, chain)
        for (item, expected) in zip(
            items,
            [
                ("wrapper", "https://ads.example/tag.xml", "Wrapper · VAST 4.2 · AdSystem Exchange"),
                ("wrapper", "https://ssp.example/w2.xml", "Wrapper · VAST 3.0 · AdSystem SSP"),
                ("inline", "https://creative.example/inline.xml", "InLine · VAST 4.1 · AdSystem Creative &lt;Server&gt;")
            ])
        {
            XCTAssertTrue(
                item.hasPrefix(
                    #"class="\#(expected.0)"><span class="uri">\#(expected.1)</span> <span class="details">\#(expected.2)</span>"#), item)
        }
        XCTAssertTrue(tag.contains("<h3>Wrapper chain</h3>") && tag.contains("<h3>Media files</h3>"))
        // One row per MediaFile: the VPAID one skipped with its reason, the 1080p one chosen, each validated one linked.
        let rows = tag.components(separatedBy: #"<tr class="media "#).dropFirst().map {
            String($0.prefix { $0 != "\n" }.split(separator: "</tr>")[0])
        }
        XCTAssertEqual(rows.count, 3, tag)
        XCTAssertTrue(
            rows[0].hasPrefix(
                #"skipped"><td>https://cdn.example/ad.js</td><td>application/javascript</td><td>progressive</td><td>1920x1080</td><td>2000 kbit/s</td><td>avc1.64001F</td><td>skipped: VPAID (interactive) is not played</td><td>not validated</td>"#
            ), rows[0])
        XCTAssertTrue(rows[1].hasPrefix(#"playable"><td>https://cdn.example/ad-720.mp4</td>"#), rows[1])
        XCTAssertTrue(
            rows[1].hasSuffix(##"<td>playable</td><td><a href="#creative-2">section</a> <span class="status warn">WARN</span></td>"##),
            rows[1])
        XCTAssertTrue(rows[2].hasPrefix(#"chosen"><td>https://cdn.example/ad-1080.mp4?a=1&amp;b=2</td>"#), rows[2])
        XCTAssertTrue(rows[2].contains("<strong>chosen for 1920x1080</strong>: progressive video/mp4 1920x1080"), rows[2])
        XCTAssertTrue(rows[2].hasSuffix(##"<a href="#creative-3">section</a> <span class="status pass">PASS</span></td>"##), rows[2])
        // Every link stays inside the page and points at a section that exists; nothing runs or is fetched.
        for href in HTMLReading.elements("a", in: html).compactMap({ $0["href"] }) {
            XCTAssertTrue(href.hasPrefix("#"), href)
            XCTAssertNotNil(HTMLReading.section(String(href.dropFirst()), in: html), href)
        }
        for banned in ["<script", "<link", "url(", "@import", "src=\"http", "href=\"http", "<iframe"] {
            XCTAssertFalse(html.contains(banned), banned)
        }
        // The other formats do not carry it.
        var plain = report
        plain.creatives[0].vast = nil
        for format in [ReportFormat.text, .json, .junit] { XCTAssertEqual(report.render(format), plain.render(format), "\(format)") }
    }
}
