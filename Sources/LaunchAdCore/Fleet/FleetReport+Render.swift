import Foundation

/// The fleet report as text (a terminal), JSON (a program) and HTML (a person, self-contained
/// like the validation report). Screen names, ad ids, outcomes and error codes come from kiosks:
/// each goes through the escaper of where it is written.
extension FleetReport {
    /// Plain text, aligned in columns. Every cell, and the server's version, goes through
    /// `cell` (the terminal's escaper, then the width bound), so no text a server or a kiosk
    /// chose reaches the terminal raw, and no cell is wider than `maxCellWidth`.
    public var text: String {
        var out = "LaunchAd fleet report: ClickHouse \(FleetReport.cell(serverVersion)), \(FleetReport.utc(serverNow))\n"
        out += limitsLine + "\n" + summaryLine + "\n"
        if truncated { out += "Cut short: a query returned more rows than the report reads.\n" }
        out += "\nScreens\n"
        var rows = [["screen", "last seen (server)", "plays", "outcomes", "errors", "dropped", "clock", ""]]
        for s in screens {
            var flags: [String] = []
            if let silent = s.silentFor { flags.append("SILENT \(FleetReport.duration(silent))") }
            if s.skewed { flags.append("CLOCK OFF") }
            rows.append([
                s.name, s.lastSeen.map(FleetReport.utc) ?? "—", "\(s.plays)", FleetReport.plainTallies(s.outcomes),
                FleetReport.plainTallies(s.errors), "\(s.framesDropped)", FleetReport.skewText(s.skew), flags.joined(separator: ", ")
            ])
        }
        out += FleetReport.columns(rows)
        out += "\nAds (each play once)\n"
        var adRows = [["day", "ad", "plays", "screens", "completed", "shown"]]
        for a in ads {
            adRows.append([
                a.day, a.adID ?? "(none)", "\(a.plays)", "\(a.screens)", "\(a.completed)", FleetReport.duration(a.shownMs / 1000)
            ])
        }
        return out + FleetReport.columns(adRows)
    }

    /// The widest a text cell may be, in characters (Unicode scalars, so a letter carrying
    /// thousands of accents is as wide as its scalars): a longer one (a 64 KB screen name a
    /// kiosk inserted) is cut to this many, its last one an ellipsis. JSON and HTML keep it whole.
    public static let maxCellWidth = 64

    /// `text` as a cell: its control characters escaped (`TerminalText`), then cut to
    /// `maxCellWidth` with an ellipsis. Reads only as much of `text` as it shows.
    static func cell(_ text: String) -> String {
        var out = ""
        var width = 0
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next {
            let shown = TerminalText.escaped(String(scalar))
            next = scalars.next()
            // When more follows, the last place is the ellipsis's.
            let room = next == nil ? maxCellWidth : maxCellWidth - 1
            if width + shown.unicodeScalars.count > room { return out + "…" }
            out += shown
            width += shown.unicodeScalars.count
        }
        return out
    }

    /// Rows of cells (each through `cell`) padded into columns two spaces apart, trailing spaces
    /// dropped. Linear in the cells' total size.
    static func columns(_ rows: [[String]]) -> String {
        let cells = rows.map { $0.map(cell) }
        let counts = cells.map { $0.map(\.count) }
        let columns = counts.map(\.count).max() ?? 0
        let widths = (0..<columns).map { i in counts.map { i < $0.count ? $0[i] : 0 }.max() ?? 0 }
        var out = ""
        for (r, row) in cells.enumerated() {
            var line = ""
            for (i, cell) in row.enumerated() {
                if i > 0 { line += "  " }
                line += cell
                line += String(repeating: " ", count: widths[i] - counts[r][i])
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    /// The report as one JSON object.
    public var json: JSONValue {
        let tallies = { (t: [Tally]) in JSONValue.object(t.map { ($0.name, .int($0.count)) }) }
        let optional = { (v: Int?) in v.map { JSONValue.int($0) } ?? .null }
        return .object([
            ("server", .object([("version", .string(serverVersion)), ("now", .string(FleetReport.iso(serverNow)))])),
            ("since_s", .int(limits.since)), ("silent_after_s", .int(limits.silentAfter)), ("max_skew_s", .int(limits.maxSkew)),
            ("truncated", .bool(truncated)),
            (
                "screens",
                .array(
                    screens.map { s in
                        .object([
                            ("screen", .string(s.name)), ("last_seen", s.lastSeen.map { .string(FleetReport.iso($0)) } ?? .null),
                            ("plays", .int(s.plays)), ("outcomes", tallies(s.outcomes)), ("errors", tallies(s.errors)),
                            ("frames_dropped", .int(s.framesDropped)), ("shown_ms", .int(s.shownMs)), ("clock_skew_s", optional(s.skew)),
                            ("clock_off", .bool(s.skewed)), ("silent_s", optional(s.silentFor))
                        ])
                    })
            ),
            (
                "ads",
                .array(
                    ads.map { a in
                        .object([
                            ("day", .string(a.day)), ("ad_id", a.adID.map { .string($0) } ?? .null), ("plays", .int(a.plays)),
                            ("screens", .int(a.screens)), ("completed", .int(a.completed)), ("shown_ms", .int(a.shownMs))
                        ])
                    })
            )
        ])
    }

    /// `2026-12-01T08:00:01Z`.
    static func iso(_ seconds: Int) -> String {
        ClickHouseInsert.dateTime(Date(timeIntervalSince1970: Double(seconds))).replacingOccurrences(of: " ", with: "T") + "Z"
    }

    /// One self-contained page: inline CSS, no script, nothing fetched, every link inside it.
    public var html: String {
        let e = MarkupText.escape
        var body = "<h1>Fleet report</h1>\n"
        body +=
            #"<p class="summary-line">\#(e(summaryLine))</p><p class="limits">ClickHouse \#(e(serverVersion)), \#(e(FleetReport.utc(serverNow))); \#(e(limitsLine))</p>"#
        if truncated { body += #"<p class="truncated">Cut short: a query returned more rows than the report reads.</p>"# }
        body += "\n<h3>Screens</h3>\n"
        body +=
            #"<table class="screens"><thead><tr><th>screen</th><th>last seen (server)</th><th>plays</th><th>outcomes</th><th>errors</th><th>frames dropped</th><th>clock</th><th>status</th></tr></thead><tbody>"#
        for s in screens {
            var classes = ["screen"], words: [String] = []
            if let silent = s.silentFor {
                classes.append("silent"); words.append(#"<span class="flag silent">SILENT \#(FleetReport.duration(silent))</span>"#)
            }
            if s.skewed { classes.append("skewed"); words.append(#"<span class="flag skewed">CLOCK OFF</span>"#) }
            if words.isEmpty { words.append(#"<span class="flag ok">OK</span>"#) }
            body +=
                #"<tr class="\#(classes.joined(separator: " "))" data-screen="\#(e(s.name))" data-plays="\#(s.plays)"><td>\#(e(s.name))</td><td>\#(s.lastSeen.map { e(FleetReport.utc($0)) } ?? "—")</td><td>\#(s.plays)</td>"#
            body +=
                "<td>\(e(FleetReport.plainTallies(s.outcomes)))</td><td>\(e(FleetReport.plainTallies(s.errors)))</td><td>\(s.framesDropped)</td><td>\(e(FleetReport.skewText(s.skew)))</td><td>\(words.joined(separator: " "))</td></tr>"
        }
        body += "</tbody></table>\n<h3>Ads: plays per day, each play once</h3>\n"
        body +=
            #"<table class="ads"><thead><tr><th>day</th><th>ad</th><th>plays</th><th>screens</th><th>completed</th><th>shown</th></tr></thead><tbody>"#
        for a in ads {
            body +=
                #"<tr class="ad-day" data-day="\#(e(a.day))" data-ad="\#(e(a.adID ?? ""))" data-plays="\#(a.plays)"><td>\#(e(a.day))</td><td>\#(e(a.adID ?? "(none)"))</td>"#
            body +=
                "<td>\(a.plays)</td><td>\(a.screens)</td><td>\(a.completed)</td><td>\(e(FleetReport.duration(a.shownMs / 1000)))</td></tr>"
        }
        body += "</tbody></table>\n"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>LaunchAd fleet: \(e(summaryLine))</title>
            <style>\(HTMLStyle.css)\(FleetReport.css)</style>
            </head><body>
            \(body)</body></html>

            """
    }

    /// Tallies for markup (escaped by the caller).
    static func plainTallies(_ t: [Tally]) -> String {
        t.isEmpty ? "—" : t.map { "\($0.name.isEmpty ? "?" : $0.name) \($0.count)" }.joined(separator: ", ")
    }

    static let css = """
        .flag{font-weight:bold;padding:1px 6px;border-radius:3px;color:#fff}.flag.ok{background:#1b7f3b}
        .flag.silent{background:#c62828}.flag.skewed{background:#a86400}
        tr.screen.silent td{background:#fdecea}tr.screen.skewed td{background:#fff4e0}
        .limits{color:#555;font-size:13px}.truncated{color:#c62828;font-weight:bold}
        """
}
