/// The report people look at: one self-contained HTML page (inline CSS, pictures as data: URIs,
/// plots as inline SVG, no script, nothing fetched), a summary table first, then a section per
/// creative built from `CreativeSection`s, so a new kind of section is one more entry in a list.
extension ValidationReport {
    func htmlReport() -> String {
        let anchors = creatives.indices.map(ValidationReport.anchor)
        var body = "<h1>Creative validation</h1>\n" + summaryTable(anchors)
        for (c, anchor) in zip(creatives, anchors) {
            body += #"<section class="creative" id="\#(anchor)">"#
            for section in CreativeSection.standard {
                guard let content = section.render(c) else { continue }
                body += section.title.map { "<h3>\($0)</h3>" } ?? ""
                body += "<div class=\"\(section.id)\">\(content)</div>\n"
            }
            body += "</section>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>LaunchAd validation: \(summaryLine)</title>
            <style>\(HTMLStyle.css)</style>
            </head><body>
            \(body)</body></html>

            """
    }

    var summaryLine: String {
        let failed = creatives.filter { $0.status == .fail }.count, warned = creatives.filter { $0.status == .warn }.count
        let noun = creatives.count == 1 ? "creative" : "creatives"
        return "\(creatives.count) \(noun): \(creatives.count - failed - warned) passed, \(warned) warned, \(failed) failed"
    }

    private func summaryTable(_ anchors: [String]) -> String {
        var s =
            #"<p class="summary-line">\#(summaryLine)</p><table class="summary"><thead><tr><th>#</th><th>creative</th><th>verdict</th><th>pass</th><th>warn</th><th>fail</th><th>spec</th><th>duration</th></tr></thead><tbody>"#
        for (i, (c, anchor)) in zip(creatives, anchors).enumerated() {
            let duration = c.facts?.probe.durationSeconds.map { "\(SpecValue.format($0)) s" } ?? "—"
            s +=
                ##"<tr><td>\##(i + 1)</td><td><a href="#\##(anchor)">\##(MarkupText.escape(c.file))</a></td><td>\##(HTMLStyle.status(c.status))</td>"##
            s +=
                "<td>\(c.count(.pass))</td><td>\(c.count(.warn))</td><td>\(c.count(.fail))</td><td>\(MarkupText.escape(c.spec))</td><td>\(duration)</td></tr>"
        }
        return s + "</tbody></table>\n"
    }
}

/// One part of a creative's section: an id (its CSS class), a heading, and its HTML, or nil when
/// it has nothing to show for this creative.
struct CreativeSection: Sendable {
    var id: String
    var title: String?
    var render: @Sendable (CreativeReport) -> String?

    /// The order a reviewer reads in: the verdict, why, what it looks like, what it sounds like, the facts.
    static let standard: [CreativeSection] = [
        CreativeSection(id: "banner", title: nil, render: { banner($0) }),
        CreativeSection(id: "rules", title: "Rules", render: { rules($0) }),
        CreativeSection(id: "vast-chain", title: "Wrapper chain", render: { $0.vast.map(wrapperChain) }),
        CreativeSection(id: "vast-media", title: "Media files", render: { $0.vast.flatMap(mediaLadder) }),
        CreativeSection(id: "pictures", title: "Pictures", render: { pictures($0) }),
        CreativeSection(id: "loudness", title: "Loudness", render: { loudness($0) }),
        CreativeSection(id: "events", title: "Timeline: black, silence, decode errors and quality findings", render: { timeline($0) }),
        CreativeSection(id: "facts", title: "Probe facts", render: { facts($0) })
    ]

    static func banner(_ c: CreativeReport) -> String {
        var details = [
            "\(c.spec): \(c.count(.pass)) pass, \(c.count(.warn)) warn, \(c.count(.fail)) fail"
                + (c.count(.skip) > 0 ? ", \(c.count(.skip)) skip" : "")
        ]
        if let p = c.facts?.probe {
            if let v = p.video, let w = v.displayWidth, let h = v.displayHeight { details.append("\(w)x\(h)") }
            if let d = p.durationSeconds { details.append("\(SpecValue.format(d)) s") }
            details.append("\(SpecValue.format(Double(p.fileSize) / 1_000_000)) MB")
        }
        return
            #"<div class="verdict \#(c.status.rawValue)"><span class="word">\#(c.status.rawValue.uppercased())</span> <span class="file">\#(MarkupText.escape(c.file))</span><div class="details">\#(MarkupText.escape(details.joined(separator: " · ")))</div></div>"#
    }

    static func rules(_ c: CreativeReport) -> String {
        var s = "<table class=\"rules\"><thead><tr><th>rule</th><th>status</th><th>measured</th><th>limit</th></tr></thead><tbody>"
        for r in c.results {
            s +=
                #"<tr class="rule \#(r.status.rawValue)" data-rule="\#(MarkupText.escape(r.rule))"><td>\#(MarkupText.escape(r.rule))</td><td>\#(HTMLStyle.status(r.status))</td><td>\#(MarkupText.escape(r.measuredText))</td><td>\#(MarkupText.escape(r.limit))</td></tr>"#
        }
        return s + "</tbody></table>"
    }

    /// A VAST tag's documents in the order they were followed, the InLine last.
    static func wrapperChain(_ v: VASTReportFacts) -> String {
        var s = v.chain.isEmpty ? #"<p class="none">No document could be read.</p>"# : #"<ol class="chain">"#
        for link in v.chain {
            let kind = link.isInline ? "InLine" : "Wrapper"
            var words = [link.problem ?? kind]
            if let version = link.version { words.append("VAST \(version)") }
            if link.problem == nil { words.append("AdSystem " + (link.adSystem ?? "not given")) }
            s +=
                #"<li class="\#(link.problem == nil ? kind.lowercased() : "failed")"><span class="uri">\#(MarkupText.escape(link.uri))</span> <span class="details">\#(MarkupText.escape(words.joined(separator: " · ")))</span></li>"#
        }
        if !v.chain.isEmpty { s += "</ol>" }
        if let e = v.chainError { s += #"<p class="chain-error">\#(MarkupText.escape(e))</p>"# }
        return s
    }

    /// Each MediaFile of the linear creative: what it is, what this player makes of it, and its own section.
    static func mediaLadder(_ v: VASTReportFacts) -> String? {
        guard !v.mediaFiles.isEmpty else { return nil }
        var s =
            #"<table class="ladder"><thead><tr><th>media file</th><th>type</th><th>delivery</th><th>size</th><th>bitrate</th><th>codec</th><th>this player</th><th>section</th></tr></thead><tbody>"#
        for row in v.mediaFiles {
            let f = row.file
            let verdict: String, css: String
            switch row.verdict {
            case .chosen(let why): css = "chosen"; verdict = "<strong>chosen for \(v.window)</strong>: \(MarkupText.escape(why))"
            case .playable: css = "playable"; verdict = "playable"
            case .skipped(let why): css = "skipped"; verdict = "skipped: \(MarkupText.escape(why))"
            }
            let size = f.width > 0 && f.height > 0 ? "\(f.width)x\(f.height)" : "—"
            let section: String
            if let anchor = row.anchor {
                let status = row.status.map { " " + HTMLStyle.status($0) } ?? ""
                section = ##"<a href="#\##(MarkupText.escape(anchor))">section</a>\##(status)"##
            } else {
                section = "not validated"
            }
            s +=
                #"<tr class="media \#(css)"><td>\#(MarkupText.escape(f.url))</td><td>\#(MarkupText.escape(f.type))</td><td>\#(MarkupText.escape(f.delivery))</td><td>\#(size)</td>"#
            s +=
                "<td>\(f.bitrate.map { "\($0) kbit/s" } ?? "—")</td><td>\(MarkupText.escape(f.codec ?? "—"))</td><td>\(verdict)</td><td>\(section)</td></tr>"
        }
        return s + "</tbody></table>"
    }

    static func pictures(_ c: CreativeReport) -> String? {
        guard let facts = c.facts else { return nil }
        guard !facts.analysis.pictures.isEmpty else {
            return facts.probe.video == nil
                ? #"<p class="none">No video stream.</p>"# : #"<p class="none">No picture could be decoded.</p>"#
        }
        // The caption on screen at each picture's time, from the first track that has cues.
        let track = facts.captions?.lazy.compactMap(\.track).first
        return facts.analysis.pictures.map { p in
            let cue =
                Checked.milliseconds(p.seconds).flatMap { track?.text(atMs: $0) }.map {
                    #"<p class="cue">\#(MarkupText.escape($0).replacingOccurrences(of: "\n", with: "<br>"))</p>"#
                } ?? ""
            return
                #"<figure><img src="\#(HTML.dataURI(png: p.png))" width="\#(p.width)" height="\#(p.height)" alt="picture at \#(HTML.clock(p.seconds))"><figcaption>\#(HTML.clock(p.seconds))\#(cue)</figcaption></figure>"#
        }.joined()
    }

    static func loudness(_ c: CreativeReport) -> String? {
        guard let facts = c.facts else { return nil }
        guard facts.probe.audio != nil else { return #"<p class="none">No audio stream.</p>"# }
        let plot = LoudnessPlot(facts, limit: c.limits[.loudnessIntegrated])
        let meter = TruePeakMeter(
            peak: facts.analysis.truePeak.flatMap { $0.isFinite ? $0 : nil },
            limit: c.limits[.truePeak]?.max)
        var words = [plot.integrated.map { "integrated \(String(format: "%.1f", $0)) LUFS" } ?? "integrated: not measured"]
        if let band = plot.band { words.append(band.label) }
        if let lra = facts.analysis.loudnessRange { words.append("range \(SpecValue.format(lra)) LU") }
        if let tp = facts.analysis.truePeak {
            words.append("true peak \(SpecValue.format(tp)) dBTP" + (meter.limit.map { " (limit \(SpecValue.format($0)))" } ?? ""))
        }
        return plot.svg() + meter.svg() + "<p>\(MarkupText.escape(words.joined(separator: " · ")))</p>"
    }

    static func timeline(_ c: CreativeReport) -> String? {
        guard let facts = c.facts else { return nil }
        guard !facts.probe.stillImage else { return #"<p class="none">A still image: nothing happens over time.</p>"# }
        let t = IntervalTimeline(facts, rules: Array(c.limits.keys))
        return t.svg() + t.list()
    }

    static func facts(_ c: CreativeReport) -> String? {
        guard let probe = c.facts?.probe else { return nil }
        guard case .object(let pairs) = probe.json else { return nil }
        var s = "<table class=\"facts\"><tbody>"
        var streams: [JSONValue] = []
        for (key, value) in pairs {
            if key == "streams", case .array(let list) = value { streams = list; continue }
            s += "<tr><th>\(MarkupText.escape(key))</th><td>\(MarkupText.escape(value.plain))</td></tr>"
        }
        s += "</tbody></table>"
        for stream in streams {
            guard case .object(let fields) = stream else { continue }
            s +=
                "<table class=\"facts stream\"><tbody>"
                + fields.map { "<tr><th>\(MarkupText.escape($0.0))</th><td>\(MarkupText.escape($0.1.plain))</td></tr>" }.joined()
                + "</tbody></table>"
        }
        return s
    }
}

extension JSONValue {
    /// A fact as a table cell shows it: strings without quotes, the rest as JSON.
    var plain: String {
        if case .string(let s) = self { return s }
        return serialized()
    }
}
