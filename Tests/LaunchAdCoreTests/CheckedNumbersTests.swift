import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// Issue 29, class fix 4: a number a document, a file or a server chose becomes an integer only
/// through `Checked` (NaN, the infinities and 1e308 end as the caller's documented error, never
/// as the runtime's trap). The sources are read so that a new raw conversion cannot slip in, and
/// each kind of document is fed the numbers that trap.
final class CheckedNumbersTests: XCTestCase {
    static let hostile: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, .greatestFiniteMagnitude, 9.3e18, -9.3e18]

    func testTheHelperNeverTraps() {
        for v in Self.hostile {
            XCTAssertNil(Checked.int(v), "\(v)")
            XCTAssertNil(Checked.int64(v), "\(v)")
            XCTAssertNil(Checked.int32(v), "\(v)")
            XCTAssertNil(Checked.rounded(v), "\(v)")
            XCTAssertNil(Checked.milliseconds(v), "\(v)")
            XCTAssertTrue((-5...5).contains(Checked.int(v, clampedTo: -5...5)), "\(v)")
        }
        XCTAssertEqual(Checked.int(.nan, clampedTo: 3...9), 3)
        XCTAssertEqual(Checked.int(.infinity, clampedTo: 3...9), 9)
        XCTAssertEqual(Checked.milliseconds(1.2345), 1235)
        XCTAssertEqual(Checked.rounded(-2.5), -3)
        XCTAssertNil(Checked.milliseconds(1e13), "past 2^53 ms")
    }

    // MARK: The sources

    /// Files that still convert a floating value with `Int(...)`, each with why the value is not
    /// one a document chose, and how many such conversions it holds. A new conversion anywhere
    /// else, or one more in a listed file, fails until it goes through `Checked` (or is listed
    /// here with its reason).
    static let allowed: [String: (count: Int, why: String)] = [
        "LaunchAdEngine/Options/PrefetchOptions.swift": (1, "--max-creative-bytes, checked finite and bounded by the argument reader"),
        "LaunchAdCLI/PreviewCommand.swift": (2, "--duration and --at, bounded by the argument reader (3600, 86,400 s)"),
        "LaunchAdCLI/ProgressBar.swift": (1, "a fraction clamped to 0...1 times the bar's width"),
        "LaunchAdCLI/ValidateCommand.swift": (1, "the progress total, a sum of fractions from 0 to 1"),
        "LaunchAdCore/Captions/CaptionLayout.swift": (1, "the layout unit: the window's size over a fixed design size"),
        "LaunchAdCore/Config/PlayerConfig.swift": (1, "--duration, bounded by the argument reader"),
        "LaunchAdCore/Events/ProcessClock.swift": (1, "the process's own monotonic clock"),
        "LaunchAdCore/Layout/AdLayout.swift": (8, "window and picture sizes (at most 16384 px) scaled by finite ratios of them"),
        "LaunchAdCore/Layout/Gallery.swift": (5, "device preset sizes (the code's table) scaled to the gallery"),
        "LaunchAdCore/Layout/Geometry.swift": (2, "sizes scaled by a finite factor"),
        "LaunchAdCore/Layout/ScaledRect.swift": (2, "sizes scaled by a finite factor"),
        "LaunchAdCore/Layout/ScreenRotation.swift": (4, "a rectangle's corners turned by 90-degree steps"),
        "LaunchAdCore/Session/SessionConfig.swift": (
            6, "--max-duration, --duration, --skip-after, --wait, --stall-timeout: bounded by the argument reader"
        ),
        "LaunchAdDelivery/Net/CurlTransfer.swift": (3, "--timeout and --connect-timeout, bounded by the argument reader (3600 s)"),
        "LaunchAdDelivery/Outbox/Outbox.swift": (8, "the system clock, --beacon-ttl (bounded) and the retry back-off (the code's)"),
        "LaunchAdMedia/Image/ImageLoader.swift": (2, "a decoded picture's size (FFmpeg's int) scaled down to 4096 px"),
        "LaunchAdMedia/Snapshot/ContactSheet.swift": (1, "a decoded picture's size scaled to the sheet"),
        "LaunchAdPlayer/Engine/AudioPipeline.swift": (1, "the device's bytes per second times the code's queue target"),
        "LaunchAdPlayer/Engine/VideoPipeline.swift": (2, "a decoded picture's size scaled down to 4096 px"),
        "LaunchAdPlayer/Loop/HandOffScreen.swift": (1, "--hold, bounded by the argument reader (60 s)"),
        "LaunchAdPlayer/Overlay/Shapes.swift": (1, "a fraction clamped to 0...1 of the code's segment count"),
        "LaunchAdPlayer/Overlay/SkipButtonView.swift": (3, "the button's size in pixels"),
        "LaunchAdPlayer/SDL/Renderer.swift": (2, "a destination rectangle's centre in pixels"),
        "LaunchAdPlayer/Scene.swift": (1, "an opacity clamped to 0...1, as 0...255")
    ]

    /// Every `Int(`, `Int64(`, `UInt32(`... (not `exactly:`, `clamping:`, `truncatingIfNeeded:`,
    /// `bitPattern:`) whose argument is floating arithmetic: a `rounded(`, a `Double(`, a scale
    /// by 1000, seconds, a time interval, a rational of FFmpeg's, a literal with a fraction.
    static func floatingConversions(in text: String) -> [String] {
        let opening = try! NSRegularExpression(pattern: #"\b(U?Int(8|16|32|64)?|CInt|CLong)\("#)
        let floating = try! NSRegularExpression(
            pattern:
                #"rounded\(|\bDouble\(|\bFloat\(|\*\s*1000\b|/\s*1000\b|timeInterval|av_q2d|\bfloor\(|\bceil\(|\bsqrt\(|\bpow\(|\*\s*(scale|factor)\b|\bseconds\b|[0-9]\.[0-9]"#
        )
        var found: [String] = []
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
            let s = String(line)
            let chars = Array(s.utf16)
            for m in opening.matches(in: s, range: NSRange(location: 0, length: chars.count)) {
                var depth = 1
                var end = m.range.location + m.range.length
                let start = end
                while end < chars.count, depth > 0 {
                    if chars[end] == 40 { depth += 1 } else if chars[end] == 41 { depth -= 1 }
                    end += 1
                }
                let argument = String(decoding: chars[start..<max(start, end - 1)], as: UTF16.self)
                if argument.range(of: #"^\s*(exactly|truncatingIfNeeded|clamping|bitPattern|ascii)\s*:"#, options: .regularExpression)
                    != nil
                {
                    continue
                }
                if floating.firstMatch(in: argument, range: NSRange(argument.startIndex..., in: argument)) != nil {
                    found.append(argument.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        return found
    }

    func testNoRawConversionOfAFloatingValueOutsideTheHelper() throws {
        let root = Fixtures.repoRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        XCTAssertGreaterThan(files.count, 200)
        var seen: [String: [String]] = [:]
        for path in files where path != "LaunchAdCore/Parsing/Checked.swift" {
            let found = Self.floatingConversions(in: try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
            if !found.isEmpty { seen[path] = found }
        }
        for (path, found) in seen.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(
                found.count, Self.allowed[path]?.count ?? 0,
                "\(path): \(found) — a number a document or file chose goes through Checked; list it in `allowed` only when it did not")
        }
        for path in Self.allowed.keys where seen[path] == nil { XCTFail("\(path) is listed but converts nothing now: remove it") }
        // The scanner itself sees what it must.
        XCTAssertEqual(Self.floatingConversions(in: "let ms = Int((d * 1000).rounded())").count, 1)
        XCTAssertEqual(Self.floatingConversions(in: "let n = Int64(x.rounded(.down)) + Int(exactly: y)").count, 1)
        XCTAssertEqual(Self.floatingConversions(in: "// Int((d * 1000).rounded())\nlet n = Int(count)").count, 0)
    }
}

/// Issue 42, 1: the fleet report trapped on numbers a server chose. A number leaves a ClickHouse
/// answer only through `ClickHouseRows.Row.int`, which goes through `Checked`; the report's files
/// convert nothing else to an integer (a conversion added there fails until it is listed here).
extension CheckedNumbersTests {
    static let fleetFiles: [String: Int] = [
        "Sources/LaunchAdCore/Fleet/ClickHouseAnswer.swift": 0, "Sources/LaunchAdCore/Fleet/FleetReport.swift": 0,
        "Sources/LaunchAdCore/Fleet/FleetReport+Render.swift": 0, "Sources/LaunchAdCore/Fleet/FleetQueries.swift": 0,
        // `Int(maxBytes)`: the client's own byte cap, an Int64 the code sets.
        "Sources/LaunchAdDelivery/Fleet/ClickHouseClient.swift": 1
    ]

    func testTheFleetReportReadsNumbersOnlyThroughChecked() throws {
        let conversion = try NSRegularExpression(
            pattern: #"\b(U?Int(8|16|32|64)?|CInt|CLong)\((?!\s*(exactly|clamping|truncatingIfNeeded|bitPattern|ascii)\s*:)"#)
        let sources = Dictionary(try SourceFiles.all().map { ($0.path, $0.text) }, uniquingKeysWith: { a, _ in a })
        for (path, allowed) in Self.fleetFiles {
            let text = try XCTUnwrap(sources[path], path)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(
                separator: "\n")
            XCTAssertEqual(conversion.numberOfMatches(in: code, range: NSRange(code.startIndex..., in: code)), allowed, path)
        }
        let answer = try XCTUnwrap(sources["Sources/LaunchAdCore/Fleet/ClickHouseAnswer.swift"])
        XCTAssertTrue(answer.contains("case .number(let d)?: return d == d.rounded() ? Checked.int(d) : nil"))
        XCTAssertTrue(answer.contains("case .text(let s)?: return Checked.int(decimal: s)"))
    }
}

/// The numbers that trap, in each kind of document and file value that becomes an integer.
extension CheckedNumbersTests {
    /// VAST: durations, skip offsets and tracking offsets of 1e308, NaN, infinity and past 24 h
    /// are the documented VAST refusals (or plain numbers kept as seconds), never a trap; the
    /// ones accepted become milliseconds through the helper.
    func testVASTNumbersThatCannotBeIntegers() throws {
        for raw in ["1e308", "nan", "inf", "-1e308", "99999999999:00:00", "00:00:1e308", "1e308%", "nan%", "-inf%", "9e18%"] {
            XCTAssertNil(VASTOffset(parsing: raw), raw)
        }
        XCTAssertNil(VASTOffset.percent(100).milliseconds(of: Int.max), "a duration of Int.max ms has no percentage in ms")
        XCTAssertEqual(VASTOffset(parsing: "99999:59:59.999")?.milliseconds(of: nil), 359_999_999_999)
        XCTAssertEqual(VASTOffset.seconds(.greatestFiniteMagnitude).label, "00:00:00.000")
        for duration in ["1e308", "NaN", "inf", "-1", "1e6"] {
            let xml = VASTParserTests.inline(linearAttrs: #"skipoffset="1e308""#).replacingOccurrences(
                of: "<Duration>00:00:15.500</Duration>", with: "<Duration>\(duration)</Duration>")
            let doc = try VASTParser.parse(Data(xml.utf8), budget: VASTLimits.budget(seconds: 5))
            let parsed = try XCTUnwrap(doc.ads.first, duration)
            XCTAssertEqual(parsed.problem?.code, VASTError.schema, duration)
            XCTAssertNil(parsed.linear?.duration, duration)
            XCTAssertNil(parsed.linear?.skipOffset, duration)
        }
    }

    /// Manifests: 1e308, -1e308 and 1e999 as a size, a byte count, a priority, a duration or a
    /// time reject the ad (or the file, for a number JSON cannot hold) with the field named.
    func testManifestNumbersThatCannotBeIntegers() throws {
        let sha = String(repeating: "ab", count: 32)
        let variant = { (w: String, b: String) in #"{"url": "a.mp4", "width": \#(w), "height": 720, "bytes": \#(b), "sha256": "\#(sha)"}"# }
        let cases: [(String, String)] = [
            (#""variants": [\#(variant("1e308", "10"))]"#, "width"),
            (#""variants": [\#(variant("-1e308", "10"))]"#, "width"),
            (#""variants": [\#(variant("720", "1e308"))]"#, "bytes"),
            (#""variants": [\#(variant("720", "9.3e18"))]"#, "bytes"),
            (#""priority": 1e308, "variants": [\#(variant("720", "10"))]"#, "priority"),
            (#""duration": 1e308, "variants": [\#(variant("720", "10"))]"#, "duration"),
            (#""skip_after": -1e308, "variants": [\#(variant("720", "10"))]"#, "skip_after"),
            // Times past the year 9999 (as epoch seconds) trapped `launch` and `schedule` later.
            (#""start": 9223372036854775807, "variants": [\#(variant("720", "10"))]"#, "start"),
            (#""start": "1e308", "variants": [\#(variant("720", "10"))]"#, "start"),
            (#""end": -9.3e18, "variants": [\#(variant("720", "10"))]"#, "end")
        ]
        let base = URL(string: "https://ads.example/m.json")!
        for (fields, field) in cases {
            let json = #"{"ads": [{"id": "x", "type": "video", \#(fields)}]}"#
            let p = try ManifestParser.parse(Data(json.utf8), base: base, budget: ManifestParser.budget(maxBytes: 100_000, seconds: 5))
            XCTAssertEqual(p.manifest.ads, [], fields)
            XCTAssertTrue(p.rejected.first?.reason.contains(field) == true, "\(fields): \(p.rejected)")
        }
        // Any time at all is written without a trap, at the ends of the years 1 to 9999.
        XCTAssertEqual(MacroExpander.timestamp(Date(timeIntervalSince1970: 9.3e18)), "9999-12-31T23:59:59.000Z")
        XCTAssertEqual(MacroExpander.timestamp(Date(timeIntervalSince1970: -.infinity)), "0001-01-01T00:00:00.000Z")
        XCTAssertEqual(MacroExpander.timestamp(Date(timeIntervalSince1970: .nan)), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(ManifestDate.time("253402300799")?.timeIntervalSince1970, 253_402_300_799)
        XCTAssertNil(ManifestDate.time("253402300800"))
        let huge = #"{"ads": [{"id": "x", "type": "video", "duration": 1e999, "variants": [\#(variant("720", "10"))]}]}"#
        XCTAssertThrowsError(
            try ManifestParser.parse(Data(huge.utf8), base: base, budget: ManifestParser.budget(maxBytes: 100_000, seconds: 5)))
    }

    /// A media file's timestamps and frame durations: a picture due 1e300 s later, an infinite
    /// frame duration or an A/V gap of 1e300 s are bounded, not trapped on.
    func testMediaTimesThatCannotBeIntegers() {
        XCTAssertEqual(PresentPacer.stepMs(frameDuration: .infinity), 50)
        XCTAssertEqual(PresentPacer.stepMs(frameDuration: 1e308), 50)
        XCTAssertEqual(PresentPacer.stepMs(frameDuration: .nan), 33)
        var watch = PresentationWatch(stallLimitMs: 5000)
        watch.videoStarted(frameDuration: .infinity)
        watch.presented(pts: 0, now: 100)
        watch.upcoming(pts: 1e300, drained: false)
        XCTAssertEqual(watch.dueAt, 100 + 86_400_000)
        watch.upcoming(pts: -.infinity, drained: false)
        XCTAssertEqual(watch.dueAt, 100)
        var frames = FrameCounter()
        frames.pictureReady()
        frames.presented(pictureTime: 1e300, audioClock: 0)
        XCTAssertEqual(frames.avOffsetMsMax, 86_400_000)
        frames.pictureReady()
        frames.presented(pictureTime: .nan, audioClock: 0)
        XCTAssertEqual(frames.avOffsetMsMax, 86_400_000)
    }
}

/// JSON numbers from a server or a manifest, and numbers written back into messages.
extension CheckedNumbersTests {
    func testJSONNumbersThatCannotBeIntegers() throws {
        let budget = ParseBudget(maxBytes: 10_000, seconds: 5, limitName: "--timeout")
        let answer = try ClickHouseRows(#"{"a": 1e308, "b": -1e308, "c": 9.3e18, "d": 12, "e": 1.5}"#, maxRows: 10, budget: budget)
        let row = try XCTUnwrap(answer.rows.first)
        XCTAssertEqual(["a", "b", "c", "e"].map { row.int($0) }, [nil, nil, nil, nil])
        XCTAssertEqual(row.int("d"), 12)
        for raw in ["1e308", "-1e308", "9.3e18", "0.5", "1001"] {
            let manifest = #"{"report": {"url": "https://collect.example/pop", "batch": \#(raw)}, "ads": []}"#
            let p = try ManifestParser.parse(
                Data(manifest.utf8), base: URL(string: "https://ads.example/m.json")!,
                budget: ManifestParser.budget(maxBytes: 10_000, seconds: 5))
            XCTAssertNil(p.manifest.report, raw)
            XCTAssertEqual(
                p.rejected,
                [RejectedAd(id: "report", reason: "report.batch must be a whole number from 1 to 1000; no play records are sent")],
                raw)
        }
        XCTAssertEqual(NumberText.plain(1e300), "1e+300")
        XCTAssertEqual(NumberText.plain(.infinity), "inf")
        XCTAssertEqual(NumberText.plain(3), "3")
        XCTAssertTrue(JSONValue.double(1e300).serialized().allSatisfy(\.isNumber))
        XCTAssertEqual(JSONValue.double(.nan).serialized(), "null")
    }
}
