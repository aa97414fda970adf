import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

/// The ClickHouse side of play records, decided in the core: table names, the DDL, the row
/// encoding, the insert's URL and answer, credentials.
final class FleetClickHouseTests: XCTestCase {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    func testATableNameIsTwoPlainIdentifiers() {
        XCTAssertEqual(ClickHouseTable("launchad.plays"), .standard)
        XCTAssertEqual(ClickHouseTable("Fleet_2.plays_v2")?.sql, "`Fleet_2`.`plays_v2`")
        for hostile in [
            "plays", "a.b.c", ".plays", "launchad.", "launchad.plays; DROP TABLE x", "launchad.`plays`", "launchad.pl ays",
            "launchad.plays--", "1db.plays", "launchad.plays\n", "launchad.plàys", "db.\u{0}x", String(repeating: "a", count: 65) + ".t", ""
        ] {
            XCTAssertNil(ClickHouseTable(hostile), hostile)
        }
        XCTAssertNotNil(ClickHouseTable(String(repeating: "a", count: 64) + ".t"))
        // A view's name past 64 characters is not made.
        XCTAssertNil(ClickHouseTable("db." + String(repeating: "t", count: 60))!.sibling("per_ad_day"))
    }

    func testATableReadBackFromTheCacheIndexIsCheckedAgain() throws {
        let good = try JSONDecoder().decode(ReportTarget.self, from: Data(#"{"url":"https://c","batch":5,"clickHouse":"a.b"}"#.utf8))
        XCTAssertEqual(good.clickHouse, ClickHouseTable("a.b"))
        let old = try JSONDecoder().decode(ReportTarget.self, from: Data(#"{"url":"https://c","batch":5}"#.utf8))
        XCTAssertNil(old.clickHouse)
        XCTAssertThrowsError(
            try JSONDecoder().decode(ReportTarget.self, from: Data(#"{"url":"https://c","batch":5,"clickHouse":"a.b;drop"}"#.utf8)))
    }

    func testTheDDLNamesEveryColumnWithTypesBothVersionsHave() {
        let script = FleetSchema.script(.standard)
        XCTAssertTrue(script.contains("CREATE DATABASE IF NOT EXISTS `launchad`;"))
        XCTAssertTrue(script.contains("CREATE TABLE IF NOT EXISTS `launchad`.`plays`"))
        XCTAssertTrue(script.contains("ENGINE = ReplacingMergeTree\nPARTITION BY toYYYYMM(started_at)\nORDER BY (screen, id);"))
        XCTAssertTrue(script.contains("    received_at DateTime('UTC') DEFAULT now()\n"))
        XCTAssertTrue(script.contains("CREATE VIEW IF NOT EXISTS `launchad`.`plays_per_ad_day` AS"))
        XCTAssertTrue(script.contains("CREATE VIEW IF NOT EXISTS `launchad`.`plays_last_seen` AS"))
        for column in FleetSchema.columns { XCTAssertTrue(script.contains("    \(column.name) \(column.type),\n"), column.name) }
        // Nothing 18.16 lacks.
        for newer in ["DateTime64", "LowCardinality", "Bool", "UUID", "SETTINGS"] { XCTAssertFalse(script.contains(newer), newer) }
        XCTAssertEqual(FleetSchema.ddl(.standard).count, 4)
    }

    func testARecordBecomesARowOfTheTablesColumns() {
        var r = PlayRecord(adID: "spring", creativeSHA256: "ab", fullscreen: true, muted: false)
        let window = WindowOpened(width: 1080, height: 1920, fullscreen: true, videoDriver: "x11", renderer: "software", rotate: 0)
        r.observe(AdEvent(.window(window), tMs: 20), at: t0)
        r.observe(AdEvent(.firstFrame(fallback: false), tMs: 100), at: t0.addingTimeInterval(0.09))
        r.observe(AdEvent(.error(PlayError(.mediaStalled, "stalled")), tMs: 900), at: t0.addingTimeInterval(0.9))
        let end = RunEnd(outcome: .error, shownMs: 1400, frames: FrameCounter.counted(shown: 35, dropped: 1))
        r.observe(AdEvent(.end(end), tMs: 2250), at: t0.addingTimeInterval(2.24))
        let row = ClickHouseInsert.row(record: r.json(id: "r1", screen: "s1", version: "9")).serialized()
        XCTAssertEqual(
            row,
            """
            {"id":"r1","screen":"s1","ad_id":"spring","creative_sha256":"ab","started_at":"2026-01-01 00:00:00",\
            "ended_at":"2026-01-01 00:00:02","shown_ms":1400,"outcome":"error","error":"media_stalled","frames_shown":35,"frames_dropped":1,\
            "av_offset_ms_max":null,"muted":0,"paused_ms":0,"width":1080,"height":1920,"fullscreen":1,"launchad_version":"9"}
            """)
        XCTAssertEqual(
            ClickHouseInsert.query(.standard),
            "INSERT INTO `launchad`.`plays` (" + FleetSchema.columns.map(\.name).joined(separator: ", ") + ") FORMAT JSONEachRow")
    }

    func testOddValuesAreClampedIntoTheColumnsTypes() {
        let record = JSONValue.object([
            ("id", "x"), ("started_at", "1969-12-31T23:59:59.000Z"), ("ended_at", "garbage"), ("shown_ms", .int(-5)),
            ("frames_shown", .int(Int.max)), ("frames_dropped", .double(2.6)), ("av_offset_ms_max", .double(.nan)), ("muted", "yes"),
            ("screen", .int(7)), ("extra", "dropped")
        ])
        XCTAssertEqual(
            ClickHouseInsert.row(record: record).serialized(),
            """
            {"id":"x","screen":"7","ad_id":null,"creative_sha256":null,"started_at":"1970-01-01 00:00:00","ended_at":"1970-01-01 00:00:00",\
            "shown_ms":0,"outcome":"","error":null,"frames_shown":4294967295,"frames_dropped":3,"av_offset_ms_max":null,"muted":0,\
            "paused_ms":0,"width":null,"height":null,"fullscreen":0,"launchad_version":""}
            """)
        XCTAssertEqual(ClickHouseInsert.dateTime(Date(timeIntervalSince1970: -100)), "1970-01-01 00:00:00")
        XCTAssertEqual(ClickHouseInsert.dateTime(Date(timeIntervalSince1970: 1e12)), "2105-12-31 23:59:59")
        XCTAssertEqual(ClickHouseInsert.dateTime(t0.addingTimeInterval(3661.9)), "2026-01-01 01:01:01")
    }

    func testEachTryStampsItsSendTimeOnEveryRow() {
        let body = ClickHouseInsert.body(rows: [#"{"id":"a"}"#, #"{"id":"b"}"#, "{}", "not json"], sentAt: t0)
        XCTAssertEqual(
            body,
            """
            {"id":"a","sent_at":"2026-01-01 00:00:00"}
            {"id":"b","sent_at":"2026-01-01 00:00:00"}
            {"sent_at":"2026-01-01 00:00:00"}
            not json

            """)
        XCTAssertEqual(ClickHouseInsert.token(itemNames: ["a", "b"]), ClickHouseInsert.token(itemNames: ["a", "b"]))
        XCTAssertNotEqual(ClickHouseInsert.token(itemNames: ["a", "b"]), ClickHouseInsert.token(itemNames: ["a"]))
        XCTAssertEqual(ClickHouseInsert.token(itemNames: ["a"]).count, 32)
    }

    func testTheInsertURLKeepsTheCollectorsPathAndEncodesEveryByte() throws {
        let table = try XCTUnwrap(ClickHouseTable("db.t"))
        let url = try XCTUnwrap(ClickHouseInsert.url(collector: "https://ch.example.com:8443/proxy/#frag", table: table, token: "ab12"))
        XCTAssertTrue(url.hasPrefix("https://ch.example.com:8443/proxy/?query=INSERT%20INTO%20%60db%60.%60t%60%20%28id%2C%20"), url)
        XCTAssertTrue(url.hasSuffix("%29%20FORMAT%20JSONEachRow&insert_deduplication_token=ab12"), url)
        XCTAssertFalse(url.contains("#") || url.contains("+") || url.contains(" "))
        XCTAssertEqual(
            ClickHouseInsert.url(collector: "http://127.0.0.1:8123", table: table, token: nil)?.hasPrefix("http://127.0.0.1:8123?query="),
            true)
        XCTAssertNil(ClickHouseInsert.url(collector: "file:///etc/passwd", table: table, token: nil))
        XCTAssertEqual(ClickHouseURL.encode("a+b&c=d é"), "a%2Bb%26c%3Dd%20%C3%A9")
    }

    /// Issue 42, 4: a ClickHouse URL with a query string of its own would choose the SQL (or the
    /// database, or a setting) run with the screen's key. One check refuses it, where the URL
    /// enters and where a request is built.
    func testAClickHouseURLWithAQueryOfItsOwnIsRefused() throws {
        let table = try XCTUnwrap(ClickHouseTable("db.t"))
        for url in [
            "https://ch.example.com/?query=INSERT%20INTO%20launchad.canary%20FORMAT%20JSONEachRow", "https://ch.example.com/?database=x",
            "https://ch.example.com:8443/p?readonly=0", "https://ch.example.com/?", "https://ch.example.com/#?query=x"
        ] {
            XCTAssertEqual(
                ClickHouseURL.refusal(url),
                "a ClickHouse server's URL may not carry a query string (launchad writes the whole query; give the server's address and path only)",
                url)
            XCTAssertNil(ClickHouseInsert.url(collector: url, table: table, token: nil), url)
            XCTAssertNil(ClickHouseURL.with(url, [("wait_end_of_query", "1")]), url)
            let parsed = try ManifestParser.parse(
                Data(#"{"report": {"url": "\#(url)", "format": "clickhouse"}, "ads": []}"#.utf8),
                base: URL(string: "https://m.example.com/m.json")!, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
            XCTAssertNil(parsed.manifest.report, url)
            XCTAssertEqual(parsed.rejected.first?.reason.hasPrefix("report.url: a ClickHouse server's URL may not carry"), true, url)
        }
        XCTAssertNil(ClickHouseURL.refusal("https://ch.example.com:8443/clickhouse/"))
        XCTAssertNotNil(ClickHouseURL.refusal("file:///etc/passwd"))
        XCTAssertNotNil(ClickHouseURL.refusal("https:///x"))
    }

    func testAnInsertsAnswerIsJudgedByItsBodyAsWellAsItsStatus() {
        XCTAssertEqual(ClickHouseAnswer.insert(status: 200, body: ""), .stored)
        XCTAssertEqual(ClickHouseAnswer.insert(status: 200, body: "Ok.\n"), .stored)
        // 18.16 and current releases on the token they do not know.
        XCTAssertEqual(
            ClickHouseAnswer.insert(
                status: 404,
                body: "Code: 115, e.displayText() = DB::Exception: Unknown setting insert_deduplication_token, e.what() = DB::Exception\n"),
            .tokenUnsupported)
        XCTAssertEqual(
            ClickHouseAnswer.insert(
                status: 400,
                body:
                    "Code: 115. DB::Exception: Setting insert_deduplication_token is neither a builtin setting nor started with the prefix 'custom_'"
            ),
            .tokenUnsupported)
        XCTAssertEqual(
            ClickHouseAnswer.insert(status: 200, body: "Code: 241, e.displayText() = DB::Exception: Memory limit exceeded\u{1b}[2J"),
            .failed(.retry, reason: "HTTP 200 with an error: Code: 241, e.displayText() = DB::Exception: Memory limit exceeded\\x1b[2J"))
        XCTAssertEqual(
            ClickHouseAnswer.insert(
                status: 404,
                body: "Code: 60, e.displayText() = DB::Exception: Table launchad.plays doesn't exist., e.what() = DB::Exception\n"),
            .failed(
                .refused,
                reason: "HTTP 404: Code: 60, e.displayText() = DB::Exception: Table launchad.plays doesn't exist., e.what() = DB::Exception"
            ))
        XCTAssertEqual(
            ClickHouseAnswer.insert(status: 500, body: "Code: 27, e.displayText() = DB::Exception: Cannot parse input"),
            .failed(.retry, reason: "HTTP 500: Code: 27, e.displayText() = DB::Exception: Cannot parse input"))
        XCTAssertEqual(
            ClickHouseAnswer.insert(status: 503, body: "<html>busy</html>"), .failed(.retry, reason: "HTTP 503: <html>busy</html>"))
        XCTAssertEqual(ClickHouseAnswer.insert(status: 302, body: ""), .failed(.retry, reason: "HTTP 302 (a redirect; not followed)"))
        // A refusal of who asked is not the records' fault: they stay queued.
        for (status, body) in [
            (401, ""), (400, "Code: 516. DB::Exception: kiosk: Authentication failed"),
            (403, "Code: 497. DB::Exception: kiosk: Not enough privileges. To execute this query, it's necessary to have the grant INSERT")
        ] {
            let reason =
                "HTTP \(status)" + (body.isEmpty ? "" : ": \(body)") + " (the server refused the credentials; the records stay queued)"
            XCTAssertEqual(ClickHouseAnswer.insert(status: status, body: body), .failed(.retry, reason: reason), body)
        }
        XCTAssertEqual(
            ClickHouseAnswer.insert(status: 400, body: "Code: 62. DB::Exception: Syntax error"),
            .failed(.refused, reason: "HTTP 400: Code: 62. DB::Exception: Syntax error"))
        // Another setting's code 115 is an ordinary refusal.
        XCTAssertEqual(
            ClickHouseAnswer.insert(status: 404, body: "Code: 115, e.displayText() = DB::Exception: Unknown setting foo"),
            .failed(.refused, reason: "HTTP 404: Code: 115, e.displayText() = DB::Exception: Unknown setting foo"))
        let long = ClickHouseAnswer.insert(status: 500, body: "Code: 1, DB::Exception: " + String(repeating: "x", count: 5000))
        if case .failed(_, let reason) = long { XCTAssertLessThan(reason.count, 320) } else { XCTFail("\(long)") }
    }

    func testCredentialsComeFromAFileOrTheEnvironmentAndStayOnOneServer() throws {
        let c = try ClickHouseCredentials.parse(file: "# kiosk\nuser = kiosk\npassword = s3 cret\n\nurl = https://CH.example.com\n")
        XCTAssertEqual(c.user, "kiosk")
        XCTAssertEqual(c.key, "s3 cret")
        XCTAssertEqual(c.origin, "https://ch.example.com:443")
        XCTAssertEqual(
            try c.headers(forCommandLine: "https://ch.example.com:443/x").get(),
            ["X-ClickHouse-User": "kiosk", "X-ClickHouse-Key": "s3 cret"])
        XCTAssertThrowsError(try c.headers(forCommandLine: "https://evil.example.com/").get()) {
            XCTAssertEqual("\($0)", "the ClickHouse credentials are for https://ch.example.com:443, not https://evil.example.com:443")
        }
        XCTAssertThrowsError(try c.headers(forCommandLine: "http://ch.example.com/").get(), "never in clear")
        XCTAssertThrowsError(try c.headers(forCommandLine: "https://ch.example.com:8443/").get(), "another port")
        let anywhere = try ClickHouseCredentials.parse(file: "user = kiosk\nkey = k\n")
        XCTAssertEqual(try anywhere.headers(forCommandLine: "http://127.0.0.1:8123").get()["X-ClickHouse-Key"], "k")
        for bad in ["key = x", "user = a\nuser = b", "user a", "user = k\nhost = x", "user = k\nurl = ftp://x", "user = \u{7}"] {
            XCTAssertThrowsError(try ClickHouseCredentials.parse(file: bad), bad)
        }
        // A line break in a value would start a header of its own.
        XCTAssertThrowsError(try ClickHouseCredentials(user: "k", key: "a\r\nX-Evil: 1"))
        XCTAssertNil(try ClickHouseCredentials.parse(environment: [:]))
        XCTAssertEqual(
            try ClickHouseCredentials.parse(environment: ["LAUNCHAD_CLICKHOUSE_USER": "u", "LAUNCHAD_CLICKHOUSE_KEY": "k"])?.key, "k")
        XCTAssertThrowsError(try ClickHouseCredentials.parse(environment: ["LAUNCHAD_CLICKHOUSE_KEY": "k"]))
    }

    func testAManifestsCollectorGetsTheCredentialsOnlyWhenTheyNameIt() throws {
        let anywhere = ClickHouseAuth.credentials(try ClickHouseCredentials(user: "u", key: "k"))
        let tied = ClickHouseAuth.credentials(try ClickHouseCredentials(user: "u", key: "k", url: "https://ch.example.com:8443"))
        let tiedOrigin = "https://ch.example.com:8443"
        XCTAssertEqual(ClickHouseAuth.none.use(for: "https://x", namedOnCommandLine: false), .plain)
        XCTAssertEqual(
            anywhere.use(for: "https://x", namedOnCommandLine: true),
            .withCredentials(CredentialBinding(namedBy: .commandLine, user: "u", origin: nil)))
        XCTAssertEqual(
            tied.use(for: "https://ch.example.com:8443/", namedOnCommandLine: false),
            .withCredentials(CredentialBinding(namedBy: .manifest, user: "u", origin: tiedOrigin)))
        guard case .refused = anywhere.use(for: "https://x", namedOnCommandLine: false) else {
            return XCTFail("sent to a manifest's collector")
        }
        guard case .refused = tied.use(for: "https://evil.example.com", namedOnCommandLine: false) else { return XCTFail("sent elsewhere") }
        XCTAssertEqual(
            ClickHouseAuth.unusable("mode 644").use(for: "https://x", namedOnCommandLine: false),
            .withCredentials(CredentialBinding(namedBy: .manifest, user: nil, origin: nil)))
        let queued = CredentialBinding(namedBy: .manifest, user: "u", origin: tiedOrigin)
        XCTAssertEqual(try tied.headers(for: "https://ch.example.com:8443", binding: queued).get()["X-ClickHouse-User"], "u")
        XCTAssertThrowsError(try tied.headers(for: "https://evil.example.com", binding: queued).get())
        XCTAssertThrowsError(try ClickHouseAuth.none.headers(for: "https://x", binding: queued).get())
    }

    /// Review 2 of issue 42: a record remembers whose credentials it may go with — who named its
    /// collector, the user and the server they were tied to, never the key — and the send-time
    /// check holds another process's credentials to it: unbound ones never go to a manifest's
    /// collector, and another user's (or the same user's tied elsewhere, or to no server) never
    /// go at all; the record waits for a sender that has the right ones.
    func testAQueuedRecordGoesOnlyWithTheCredentialsItWasQueuedFor() throws {
        let collector = "http://127.0.0.1:8123/"
        let alice = try ClickHouseCredentials(user: "alice", key: "ALICE-KEY", url: "http://127.0.0.1:8123")
        let bob = try ClickHouseCredentials(user: "bob", key: "BOB-ADMIN-KEY")
        let aliceUnbound = try ClickHouseCredentials(user: "alice", key: "ALICE-KEY")
        let aliceRotated = try ClickHouseCredentials(user: "alice", key: "NEW-KEY", url: "http://127.0.0.1:8123/")
        let fromManifest = alice.binding(namedBy: .manifest)
        XCTAssertEqual(fromManifest, CredentialBinding(namedBy: .manifest, user: "alice", origin: "http://127.0.0.1:8123"))
        func refusal(_ c: ClickHouseCredentials, _ binding: CredentialBinding) -> String? {
            if case .failure(let why) = c.headers(for: collector, binding: binding) { return why.description }
            return nil
        }
        XCTAssertNil(refusal(alice, fromManifest))
        XCTAssertNil(refusal(aliceRotated, fromManifest), "a new key for the same user and server")
        XCTAssertEqual(
            refusal(bob, fromManifest),
            "queued for the ClickHouse credentials of user alice (for http://127.0.0.1:8123), not those of user bob (for no url)")
        XCTAssertNotNil(refusal(aliceUnbound, fromManifest), "the same user, tied to no server")
        // Whose, not known (unusable credentials as it was queued, or an older launchad's `true`):
        // a manifest's collector still takes only credentials tied to it.
        XCTAssertEqual(
            refusal(bob, .unknown),
            "the ClickHouse credentials name no url, and are not sent to a collector named by a manifest (add url = ... for it)")
        XCTAssertNil(refusal(alice, .unknown))
        XCTAssertNil(refusal(bob, CredentialBinding(namedBy: .commandLine, user: nil, origin: nil)))
        XCTAssertNil(refusal(bob, bob.binding(namedBy: .commandLine)))
        XCTAssertNotNil(refusal(alice, bob.binding(namedBy: .commandLine)))
        // Nothing of the key is in what the record keeps.
        XCTAssertFalse("\(fromManifest)".contains("ALICE-KEY"))
    }

    /// Review 2 of issue 42: a manifest does not choose the table the screen's key inserts into.
    /// The screen's `--report-table` (else `launchad.plays`) decides; a manifest's `report.table`
    /// that differs is refused in one line (the ad plays without a record), one that matches, or
    /// none, is taken; the command line's own collector keeps its table.
    func testAManifestDoesNotChooseTheTable() throws {
        let url = "https://ch.example.com:8443/"
        var fromManifest = ReportTarget(url: url, clickHouse: .standard, reach: .publicOnly)
        func decided(_ target: ReportTarget, commandLine: Bool = false, table: String? = nil) -> CollectorRule.Decision {
            CollectorRule.decide(target, namedOnCommandLine: commandLine, table: table.flatMap(ClickHouseTable.init), auth: .none)
        }
        XCTAssertEqual(decided(fromManifest), .send(fromManifest, credentials: nil))
        var expected = fromManifest
        expected.clickHouse = ClickHouseTable("fleet.plays")
        XCTAssertEqual(decided(fromManifest, table: "fleet.plays"), .send(expected, credentials: nil))
        fromManifest.manifestTable = ClickHouseTable("launchad.canary")
        XCTAssertEqual(
            decided(fromManifest),
            .refused(
                "the manifest's report.table launchad.canary is not launchad.plays, the table this screen inserts into "
                    + "(--report-table); a manifest may not choose it"))
        expected = fromManifest
        expected.clickHouse = fromManifest.manifestTable
        XCTAssertEqual(decided(fromManifest, table: "launchad.canary"), .send(expected, credentials: nil), "the screen's own choice")
        fromManifest.manifestTable = .standard
        XCTAssertEqual(decided(fromManifest), .send(fromManifest, credentials: nil))
        guard case .refused = decided(fromManifest, table: "fleet.plays") else { return XCTFail("the default named, another chosen") }
        let commandLine = ReportTarget(url: url, clickHouse: ClickHouseTable("fleet.plays"), reach: .any)
        XCTAssertEqual(decided(commandLine, commandLine: true, table: "fleet.plays"), .send(commandLine, credentials: nil))
        let plain = ReportTarget(url: url, reach: .publicOnly)
        XCTAssertEqual(decided(plain, table: "fleet.plays"), .send(plain, credentials: nil), "a plain collector has no table")
    }

    func testTheManifestNamesAClickHouseCollectorAndItsTable() throws {
        func report(_ json: String) throws -> (ReportTarget?, [String]) {
            let parsed = try ManifestParser.parse(
                Data(#"{"report": \#(json), "ads": []}"#.utf8), base: URL(string: "https://m.example.com/m.json")!,
                budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
            return (parsed.manifest.report, parsed.rejected.map(\.reason))
        }
        XCTAssertEqual(try report(#"{"url": "https://ch.example.com", "format": "clickhouse"}"#).0?.clickHouse, .standard)
        XCTAssertNil(try report(#"{"url": "https://ch.example.com", "format": "clickhouse"}"#).0?.manifestTable)
        var named = ReportTarget(url: "https://ch.example.com", batch: 500, clickHouse: .standard, reach: .publicOnly)
        named.manifestTable = ClickHouseTable("fleet.plays")
        XCTAssertEqual(
            try report(#"{"url": "https://ch.example.com", "format": "clickhouse", "table": "fleet.plays", "batch": 500}"#).0, named,
            "the table it names is kept to be compared with the screen's (CollectorRule), not inserted into")
        XCTAssertNil(try report(#"{"url": "https://c.example.com", "format": "json"}"#).0?.clickHouse)
        for (bad, why) in [
            (#"{"url": "https://c", "format": "clickhouse", "table": "x; DROP TABLE y"}"#, "report.table must be database.table"),
            (#"{"url": "https://c", "format": "clickhouse", "table": 5}"#, "report.table must be database.table"),
            (#"{"url": "https://c", "table": "a.b"}"#, "report.table needs"),
            (#"{"url": "https://c", "format": "csv"}"#, "report.format must be")
        ] {
            let (target, rejected) = try report(bad)
            XCTAssertNil(target, bad)
            XCTAssertTrue(rejected.first?.hasPrefix(why) == true, "\(rejected)")
        }
    }
}
