import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// TTML basics (W3C Timed Text, IMSC1 text profile; VAST's `application/ttml+xml`): each `<p>`
/// under `<body>` is a cue. Its interval is TTML's for a `par` container: `begin` (0 when
/// unsaid) counts from its `<div>`/`<body>` ancestors' begin, `end` too, `dur` from its own
/// begin (the earlier of the two when both), and no cue outlasts an ancestor's end; a `<p>` with
/// neither lasts as long as its ancestors (to the ad's end when none ends). Times are
/// `TTMLTime`'s (the root's `ttp:frameRate`, `ttp:frameRateMultiplier`, `ttp:subFrameRate`,
/// `ttp:tickRate`). `<br/>` breaks lines; `<span>` text joins the paragraph (nested spans too).
/// Not followed: timing on `<span>`, `timeContainer="seq"` (read as `par`), styling, regions.
/// Hardened as VAST is: no DOCTYPE, no entities, UTF-8 only, bounded depth.
enum TTMLParser {
    static func parse(_ data: Data, budget: ParseBudget) throws -> CaptionParse {
        let reader = Reader()
        let (ok, parser): (Bool, XMLParser)
        // Screened and timed as VAST is (XMLGate): no DOCTYPE, no entities, UTF-8, bounded tags.
        do { (ok, parser) = try XMLGate.parse(data, into: reader, budget: budget, what: "the TTML file") } catch {
            throw CaptionError(error.message)
        }
        if let refusal = reader.refusal { throw CaptionError(refusal) }
        guard ok else { throw CaptionError("the TTML file is not well-formed XML (line \(parser.lineNumber))") }
        guard reader.sawRoot else { throw CaptionError("not a caption file: the root element is not <tt>") }
        return CaptionParse(format: .ttml, cues: reader.cues, problems: reader.problems)
    }

    private final class Reader: NSObject, XMLParserDelegate {
        static let maxDepth = 64
        /// Stands for `<br/>` while the paragraph's text is gathered (a newline there is only whitespace).
        static let lineBreak: Character = "\u{E000}"
        var cues: [CaptionCue] = []
        var problems = CueProblems()
        var refusal: String?
        var sawRoot = false
        var time = TTMLTime()
        /// Each open element: its name, whether it is in `<body>`, the begin its children count
        /// from, the end none of them outlasts, and the timing that could not be read above it.
        var stack: [(name: String, inBody: Bool, begin: Int, limit: Int, unreadable: String?)] = []
        /// The open `<p>`: its interval, text so far, and a timing it could not read.
        var paragraph: (begin: Int, end: Int, text: String, unreadable: String?)?
        var number = 0

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes: [String: String] = [:]
        ) {
            let name = local(elementName)
            if stack.isEmpty {
                guard name == "tt" else {
                    refusal = "not a caption file: the root element is <\(name)>, not <tt>"; return parser.abortParsing()
                }
                sawRoot = true
                do { time = try TTMLTime(root: { self.attribute(attributes, $0) }) } catch {
                    refusal = (error as? CaptionError)?.message ?? "\(error)"; return parser.abortParsing()
                }
            }
            guard stack.count < Reader.maxDepth else {
                refusal = "the TTML file nests deeper than \(Reader.maxDepth) elements"; return parser.abortParsing()
            }
            let parent = stack.last ?? (name: "", inBody: false, begin: 0, limit: CaptionTime.limitMs, unreadable: nil)
            let inBody = parent.inBody || name == "body"
            var entry = (name: name, inBody: inBody, begin: parent.begin, limit: parent.limit, unreadable: parent.unreadable)
            if inBody, paragraph == nil, ["body", "div", "p"].contains(name) { interval(of: attributes, from: parent, into: &entry) }
            if name == "p", inBody, paragraph == nil {
                paragraph = (entry.begin, entry.limit, "", entry.unreadable)
            } else if name == "br", paragraph != nil {
                paragraph?.text.append(Reader.lineBreak)
            }
            stack.append(entry)
        }

        /// The element's begin and the end it cannot outlast, from its `begin`, `end` and `dur`;
        /// an unreadable one marks the element (and every cue in it) as untimed.
        private func interval(
            of attributes: [String: String], from parent: (name: String, inBody: Bool, begin: Int, limit: Int, unreadable: String?),
            into entry: inout (name: String, inBody: Bool, begin: Int, limit: Int, unreadable: String?)
        ) {
            var values: [Int?] = []
            for name in ["begin", "end", "dur"] {
                guard let raw = attribute(attributes, name) else { values.append(nil); continue }
                guard let ms = time.ms(raw) else {
                    entry.unreadable = entry.unreadable ?? "<\(entry.name) \(name)=\"\(raw.prefix(40))\">"
                    return
                }
                values.append(ms)
            }
            entry.begin = CaptionTime.add(parent.begin, values[0] ?? 0)
            if let end = values[1] { entry.limit = min(entry.limit, CaptionTime.add(parent.begin, end)) }
            if let dur = values[2] { entry.limit = min(entry.limit, CaptionTime.add(entry.begin, dur)) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if paragraph != nil { paragraph?.text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard let open = stack.popLast() else { return }
            // The paragraph ends with its own `</p>`, not a nested one's.
            guard open.name == "p", let p = paragraph, !stack.contains(where: { $0.name == "p" }) else { return }
            paragraph = nil
            number += 1
            if let why = p.unreadable { return problems.add("cue \(number): cannot read the timing \(why)") }
            guard cues.count < CaptionFormat.maxCues else { return problems.add("cue \(number): over \(CaptionFormat.maxCues) cues") }
            // Whitespace inside a paragraph collapses, as XML text does; <br/> alone breaks lines.
            // The text is XML's, entities already decoded: nothing in it is markup.
            let text = p.text.split(separator: Reader.lineBreak, omittingEmptySubsequences: false)
                .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.joined(separator: "\n")
            switch CaptionFormat.displayed(number, startMs: p.begin, endMs: p.end, text: CaptionText.tidy(text)) {
            case .success(let c): cues.append(c)
            case .failure(let problem): problems.add(problem.message)
            }
        }

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) { parser.abortParsing() }
        func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
            parser.abortParsing()
        }

        private func local(_ name: String) -> String { name.split(separator: ":").last.map(String.init) ?? name }

        /// An attribute by its local name, whatever prefix (`ttp:frameRate`) it was written with.
        func attribute(_ a: [String: String], _ name: String) -> String? {
            a[name] ?? a.first { local($0.key) == name }?.value
        }
    }
}
