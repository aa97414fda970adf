import Foundation
import LaunchAdCore
import XCTest

/// `launchad fleet report`'s judgement and its three forms, from ClickHouse answers written here.
final class FleetReportModelTests: XCTestCase {
    // 2026-01-02 00:00:00 UTC
    let now = 1_767_312_000
    let limits = FleetReport.Limits(since: 86_400, silentAfter: 3600, maxSkew: 60)

    /// A fresh budget at each use: XCTest makes every test's instance before the first runs.
    var budget: ParseBudget { ParseBudget(maxBytes: 1 << 20, seconds: 5, limitName: "--timeout") }

    func rows(_ text: String) throws -> ClickHouseRows { try ClickHouseRows(text, maxRows: 11, budget: budget) }

    func report(maxRows: Int = 10, screens extra: String = "") throws -> FleetReport {
        try FleetReport(
            server: rows(#"{"now":\#(now),"version":"18.16.1"}"#),
            screens: rows(
                """
                {"screen":"lobby-1","last_seen":\(now - 30),"last_play":\(now - 40),"skew_s":"2"}
                {"screen":"dead-rtc","last_seen":\(now - 100),"last_play":0,"skew_s":"-1767311900"}
                {"screen":"quiet\\u001b[2J<b>","last_seen":\(now - 3 * 86_400),"last_play":\(now - 3 * 86_400),"skew_s":"0"}
                \(extra)
                """),
            plays: rows(
                """
                {"screen":"lobby-1","outcome":"completed","error":null,"plays":"11","frames_dropped":"3","shown_ms":"55000"}
                {"screen":"lobby-1","outcome":"error","error":"media_stalled","plays":"1","frames_dropped":"0","shown_ms":"900"}
                {"screen":"lobby-1","outcome":"skipped","error":null,"plays":"2","frames_dropped":"1","shown_ms":"6000"}
                """),
            ads: rows(
                """
                {"day":"2026-01-01","ad_id":"spring","plays":"12","screens":"1","shown_ms":"60000","completed":"11"}
                {"day":"2026-01-01","ad_id":"<script>x</script>","plays":"2","screens":"1","shown_ms":"1900","completed":"0"}
                """),
            limits: limits, maxRows: maxRows, budget: budget)
    }

    func testScreensAreJudgedSilentAndClockOffByTheLimits() throws {
        let r = try report()
        XCTAssertEqual(r.screens.map(\.name), ["dead-rtc", "lobby-1", "quiet\u{1b}[2J<b>"])
        let lobby = r.screens[1]
        XCTAssertEqual(lobby.plays, 14)
        XCTAssertEqual(
            lobby.outcomes, [.init(name: "completed", count: 11), .init(name: "skipped", count: 2), .init(name: "error", count: 1)])
        XCTAssertEqual(lobby.errors, [.init(name: "media_stalled", count: 1)])
        XCTAssertEqual(lobby.framesDropped, 4)
        XCTAssertEqual(lobby.shownMs, 61_900)
        XCTAssertNil(lobby.silentFor)
        XCTAssertFalse(lobby.skewed)
        // A dead RTC battery: its clock says 1970.
        XCTAssertTrue(r.screens[0].skewed)
        XCTAssertNil(r.screens[0].silentFor)
        XCTAssertEqual(r.screens[0].plays, 0)
        XCTAssertEqual(r.screens[2].silentFor, 3 * 86_400)
        XCTAssertEqual(r.silent.count, 1)
        XCTAssertEqual(r.skewed.count, 1)
        XCTAssertEqual(r.summaryLine, "3 screens: 1 silent, 1 with a clock off; 14 plays of 2 ads")
        XCTAssertFalse(r.truncated)
        XCTAssertEqual(r.ads.map(\.plays), [12, 2])
    }

    func testTheTextEscapesWhatKiosksSent() throws {
        let text = try report().text
        XCTAssertFalse(text.contains("\u{1b}"), text)
        XCTAssertTrue(text.contains("quiet\\x1b[2J<b>"), text)
        XCTAssertTrue(text.contains("SILENT 3d"), text)
        XCTAssertTrue(text.contains("CLOCK OFF"), text)
        XCTAssertTrue(text.contains("-20454d"), text)
        XCTAssertTrue(text.contains("completed 11, skipped 2, error 1"), text)
        XCTAssertTrue(text.contains("2026-01-01  spring"), text)
        XCTAssertTrue(text.hasPrefix("LaunchAd fleet report: ClickHouse 18.16.1, 2026-01-02 00:00:00 UTC\n"), text)
        XCTAssertTrue(text.contains("plays since 2026-01-01 00:00:00 UTC (1d, by the screens' clocks)"), text)
    }

    func testTheHTMLIsOneEscapedPage() throws {
        let html = try report().html
        XCTAssertFalse(html.contains("<script>") || html.contains("<b>") || html.contains("\u{1b}"))
        XCTAssertTrue(html.contains(#"data-ad="&lt;script&gt;x&lt;/script&gt;""#), html)
        XCTAssertTrue(html.contains(#"<tr class="screen silent" data-screen="quiet?[2J&lt;b&gt;" data-plays="0">"#), html)
        XCTAssertTrue(html.contains(#"<tr class="screen skewed" data-screen="dead-rtc""#), html)
        XCTAssertFalse(html.contains("src=") || html.contains("href=") || html.contains("url("))
    }

    func testTheJSONHasEveryFigure() throws {
        let json = try report().json.serialized()
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let screens = try XCTUnwrap(o["screens"] as? [[String: Any]])
        XCTAssertEqual(screens.map { $0["screen"] as? String }, ["dead-rtc", "lobby-1", "quiet\u{1b}[2J<b>"])
        XCTAssertEqual(screens[1]["plays"] as? Int, 14)
        XCTAssertEqual((screens[1]["outcomes"] as? [String: Int])?["completed"], 11)
        XCTAssertEqual(screens[0]["clock_off"] as? Bool, true)
        XCTAssertEqual(screens[2]["silent_s"] as? Int, 259_200)
        XCTAssertEqual(screens[1]["last_seen"] as? String, "2026-01-01T23:59:30Z")
        XCTAssertEqual((o["ads"] as? [[String: Any]])?.first?["completed"] as? Int, 11)
        XCTAssertEqual((o["server"] as? [String: Any])?["version"] as? String, "18.16.1")
    }

    /// Issue 42, 1: every number of every answer, at and past the integer limits, goes through
    /// `Checked` (`ClickHouseRows.Row.int`): past ±2^53 it reads as missing, and the report is
    /// made and written in its three forms without a trap (`now - last_seen` and `abs(skew)`
    /// trapped on `Int.min`, sums on `Int.max`).
    func testEveryNumberOfEveryAnswerNearTheLimitsIsReadWithoutATrap() throws {
        let hostile = [
            #""9223372036854775807""#, #""-9223372036854775808""#, #""18446744073709551615""#, "1e308", "-1e308", "9.3e18",
            #""9007199254740993""#, #""-9007199254740993""#
        ]
        let answers = [
            #"{"now":NOW,"version":"v"}"#.replacingOccurrences(of: "NOW", with: "\(now)"),
            #"{"screen":"s","last_seen":1767311000,"last_play":1767311000,"skew_s":"2"}"#,
            #"{"screen":"s","outcome":"completed","error":"e","plays":"4","frames_dropped":"1","shown_ms":"20000"}"#,
            #"{"day":"2026-01-01","ad_id":"a","plays":"4","screens":"1","shown_ms":"20000","completed":"4"}"#
        ]
        let numbers = [
            ["now"], ["last_seen", "skew_s"], ["plays", "frames_dropped", "shown_ms"], ["plays", "screens", "shown_ms", "completed"]
        ]
        for (a, fields) in numbers.enumerated() {
            for field in fields {
                for value in hostile {
                    var texts = answers
                    texts[a] = texts[a].replacingOccurrences(
                        of: #""\#(field)":[^,}]*"#, with: #""\#(field)":\#(value)"#, options: .regularExpression)
                    XCTAssertTrue(texts[a].contains(value), texts[a])
                    let made = Result {
                        try FleetReport(
                            server: rows(texts[0]), screens: rows(texts[1]), plays: rows(texts[2]), ads: rows(texts[3]), limits: limits,
                            maxRows: 10, budget: budget)
                    }
                    guard case .success(let r) = made else {
                        XCTAssertEqual(field, "now", "\(field) = \(value)")
                        continue
                    }
                    XCTAssertEqual(r.screens.count, 1)
                    XCTAssertFalse(r.text.isEmpty || r.html.isEmpty || r.json.serialized().isEmpty)
                    let s = r.screens[0], ad = r.ads[0]
                    let read: [String: Int?] = [
                        "last_seen": s.lastSeen, "skew_s": s.skew, "frames_dropped": a == 2 ? s.framesDropped : ad.plays,
                        "shown_ms": a == 2 ? s.shownMs : ad.shownMs, "plays": a == 2 ? s.plays : ad.plays, "screens": ad.screens,
                        "completed": ad.completed
                    ]
                    XCTAssertTrue([nil, 0].contains(read[field]!), "\(field) = \(value) read as \(String(describing: read[field]!))")
                }
            }
        }
        // Totals of numbers each within 2^53 stop at 2^53, however many rows add up.
        let many = (0..<100).map {
            #"{"screen":"s","outcome":"o\#($0)","error":null,"plays":"9007199254740992","shown_ms":"9007199254740992"}"#
        }
        let r = try FleetReport(
            server: rows(answers[0]), screens: rows(answers[1]),
            plays: ClickHouseRows(many.joined(separator: "\n"), maxRows: 101, budget: budget),
            ads: rows(""), limits: limits, maxRows: 100, budget: budget)
        XCTAssertEqual(r.screens[0].plays, 9_007_199_254_740_992)
        XCTAssertEqual(r.screens[0].shownMs, 9_007_199_254_740_992)
        XCTAssertEqual(r.totalPlays, 9_007_199_254_740_992)
        XCTAssertEqual(Checked.sum(.max, .max), 9_007_199_254_740_992)
        XCTAssertEqual(Checked.sum(.min, -1), -9_007_199_254_740_992)
        XCTAssertEqual(Checked.int(decimal: "-9007199254740992"), -9_007_199_254_740_992)
        XCTAssertNil(Checked.int(decimal: "0x10"))
        XCTAssertNil(Checked.int(decimal: " 1"))
    }

    /// Issue 42, 2: a text cell is at most `maxCellWidth` (64) characters, counted in Unicode
    /// scalars after escaping, the last an ellipsis; a letter with 400,000 accents is no wider.
    func testATextCellIsCutToItsWidth() throws {
        let accented = "a" + String(repeating: "\u{301}", count: 400_000)
        let exact = String(repeating: "x", count: 64)
        let text = try report(
            screens: """
                {"screen":"\(accented)","last_seen":\(now - 30),"last_play":0,"skew_s":"0"}
                {"screen":"\(exact)","last_seen":\(now - 30),"last_play":0,"skew_s":"0"}
                {"screen":"\(String(repeating: "\\u001b", count: 40))","last_seen":\(now - 30),"last_play":0,"skew_s":"0"}
                """
        ).text
        XCTAssertEqual(FleetReport.maxCellWidth, 64)
        for line in text.split(separator: "\n") { XCTAssertLessThanOrEqual(line.unicodeScalars.count, 8 * 64 + 14) }
        XCTAssertTrue(text.contains("a" + String(repeating: "\u{301}", count: 62) + "…  "), "cut after 63 scalars")
        XCTAssertTrue(text.contains(exact + "  "), "64 characters fit whole")
        // Escapes are never cut in the middle: 15 whole \x1b (60 characters), then the ellipsis.
        XCTAssertTrue(text.contains(String(repeating: "\\x1b", count: 15) + "…  "), text)
    }

    func testAnAnswerOverTheRowLimitIsSaidToBeCutShort() throws {
        let r = try report(maxRows: 2)
        XCTAssertTrue(r.truncated)
        XCTAssertEqual(r.screens.count, 2)
        XCTAssertTrue(r.text.contains("Cut short"))
    }

    func testABadAnswerIsOneLine() {
        XCTAssertThrowsError(try ClickHouseRows("{\"a\":1}\nnot json\u{1b}]0;x\u{7}\n", maxRows: 10, budget: budget)) {
            XCTAssertEqual("\($0)", "not a JSON row: not json\\x1b]0;x\\x07")
        }
        XCTAssertThrowsError(
            try ClickHouseRows(
                "{\"a\":1}\nCode: 395, e.displayText() = DB::Exception: Value passed to 'throwIf' function is non zero\n", maxRows: 10,
                budget: budget)
        ) {
            XCTAssertTrue("\($0)".hasPrefix("ClickHouse reported an error: Code: 395"), "\($0)")
        }
        XCTAssertThrowsError(try ClickHouseRows(String(repeating: "{}\n", count: 12), maxRows: 11, budget: budget))
        XCTAssertThrowsError(try ClickHouseRows("[1,2]\n", maxRows: 11, budget: budget))
        XCTAssertThrowsError(
            try FleetReport(
                server: ClickHouseRows("", maxRows: 1, budget: budget), screens: ClickHouseRows("", maxRows: 1, budget: budget),
                plays: ClickHouseRows("", maxRows: 1, budget: budget), ads: ClickHouseRows("", maxRows: 1, budget: budget), limits: limits,
                maxRows: 1, budget: budget))
        let quoted = try? ClickHouseRows(#"{"n":"18446744073709551615","m":-3,"s":"x","b":true}"#, maxRows: 1, budget: budget)
        XCTAssertNil(quoted?.rows[0].int("n"), "past Int: not a number, never wrapped")
        XCTAssertEqual(quoted?.rows[0].int("m"), -3)
        XCTAssertNil(quoted?.rows[0].int("s"))
    }

    /// Review 2 of issue 42: one value a kiosk inserted broke the whole report. A row ends at
    /// `\n` alone (ClickHouse's JSON writer leaves U+0085, U+2028 and U+2029 raw inside a string:
    /// one screen's name was split into two broken rows), and an exception is one only where
    /// ClickHouse writes one, on a line of its own: a cell saying `Code: 1 Exception` is a cell.
    func testAKiosksValueCannotBreakTheAnswer() throws {
        let text = [
            #"{"screen":"lobby\#u{85}evil","last_seen":"1"}"#, #"{"screen":"a\#u{2028}b\#u{2029}c"}"#,
            #"{"screen":"Code: 1 Exception"}"#, #"{"ad_id":"Code: 7. DB::Exception: x\nCode: 8. DB::Exception"}"#
        ].joined(separator: "\n")
        let parsed = try rows(text + "\n")
        XCTAssertEqual(
            parsed.rows.map { $0.text("screen") ?? $0.text("ad_id") },
            ["lobby\u{85}evil", "a\u{2028}b\u{2029}c", "Code: 1 Exception", "Code: 7. DB::Exception: x\nCode: 8. DB::Exception"])
        XCTAssertEqual(parsed.rows[0].int("last_seen"), 1)
        XCTAssertNil(ClickHouseAnswer.exception(in: text))
        XCTAssertEqual(ClickHouseAnswer.insert(status: 200, body: text), .stored, "an answer's rows are not its error")
        // Where ClickHouse writes one, it is one: a line of its own, or the header on an insert's answer.
        XCTAssertThrowsError(try rows(text + "\nCode: 241. DB::Exception: Memory limit (total) exceeded\n")) {
            XCTAssertEqual("\($0)", "ClickHouse reported an error: Code: 241. DB::Exception: Memory limit (total) exceeded")
        }
        XCTAssertEqual(
            ClickHouseAnswer.insert(status: 200, body: "", exceptionCode: "241"),
            .failed(.retry, reason: "HTTP 200 with exception code 241"))
        let report = try FleetReport(
            server: rows(#"{"now":\#(now),"version":"24.1"}"#), screens: rows(text), plays: rows(""), ads: rows(text), limits: limits,
            maxRows: 10, budget: budget)
        XCTAssertTrue(report.text.contains("lobby\\x85evil"), report.text)
        XCTAssertTrue(report.text.contains("Code: 1 Exception"), report.text)
    }

    func testAnAnswerOverItsBudgetIsRefused() throws {
        let small = ParseBudget(maxBytes: 10, seconds: 5, limitName: "--timeout")
        XCTAssertThrowsError(try ClickHouseRows(#"{"now":1,"version":"x"}"#, maxRows: 10, budget: small)) {
            XCTAssertEqual("\($0)", "the answer is 23 bytes, over the 10-byte limit")
        }
        let spent = ParseBudget(maxBytes: 1 << 20, seconds: 0, limitName: "--timeout")
        XCTAssertThrowsError(try ClickHouseRows(String(repeating: "{}\n", count: 2000), maxRows: 5000, budget: spent)) {
            XCTAssertTrue("\($0)".contains("--timeout"), "\($0)")
        }
        // Review 2: looked at every row (it was every 1,000: 300 rows of 200 KB ran 18 s past a 2 s --timeout).
        XCTAssertThrowsError(try ClickHouseRows(#"{"screen":"a"}"#, maxRows: 5000, budget: spent)) {
            XCTAssertEqual("\($0)", "reading the answer took longer than --timeout")
        }
        // Making the report is within the same deadline.
        let answers = try (0..<4).map { _ in try rows(#"{"now":\#(now),"screen":"a","plays":"1"}"#) }
        XCTAssertThrowsError(
            try FleetReport(
                server: answers[0], screens: answers[1], plays: answers[2], ads: answers[3], limits: limits, maxRows: 10, budget: spent)
        ) { XCTAssertEqual("\($0)", "reading the answers took longer than --timeout") }
    }

    func testTheQueriesSpliceOnlyTheCheckedTableAndWholeNumbers() throws {
        let q = FleetQueries(table: try XCTUnwrap(ClickHouseTable("fleet.plays")), since: 3600)
        XCTAssertTrue(q.plays.contains("FROM `fleet`.`plays` FINAL\nWHERE started_at >= now() - 3600\n"), q.plays)
        XCTAssertTrue(q.ads.contains("LIMIT 100001 FORMAT JSONEachRow"))
        XCTAssertEqual(FleetQueries(table: .standard, since: -5).since, 1)
        XCTAssertEqual(FleetQueries(table: .standard, since: .max).since, FleetQueries.maxSince)
        for sql in [q.server, q.screens, q.plays, q.ads] { XCTAssertFalse(sql.contains("SETTINGS"), sql) }
    }

    func testDurationsReadAsPeopleWriteThem() {
        XCTAssertEqual(FleetReport.duration(45), "45s")
        XCTAssertEqual(FleetReport.duration(200), "3m 20s")
        XCTAssertEqual(FleetReport.duration(3600), "1h")
        XCTAssertEqual(FleetReport.duration(20_400), "5h 40m")
        XCTAssertEqual(FleetReport.duration(187_200), "2d 4h")
        XCTAssertEqual(FleetReport.duration(-3), "0s")
    }
}
