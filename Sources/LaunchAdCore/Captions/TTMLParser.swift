import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// TTML basics (W3C Timed Text, IMSC1 text profile; VAST's `application/ttml+xml`): each `<p>`
/// under `<body>` is a cue timed by `begin` and `end` or `dur` (offset by its `<div>`/`<body>`
/// ancestors' `begin`), `<br/>` breaks its lines, `<span>` text joins it. Styling and regions
/// are not followed. Hardened as VAST is: no DOCTYPE, no entities, UTF-8 only, bounded depth.
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
        var problems: [String] = []
        var refusal: String?
        var sawRoot = false
        var frameRate = 30.0, tickRate = 1.0
        /// Each open element's name and the begin time its children count from.
        var stack: [(name: String, base: Int)] = []
        /// The open `<p>`: its times and text so far.
        var paragraph: (begin: Int?, end: Int?, text: String, timing: String)?
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
                if let r = attribute(attributes, "frameRate").flatMap(Double.init), r > 0, r <= 1000 { frameRate = r }
                if let r = attribute(attributes, "tickRate").flatMap(Double.init), r > 0 { tickRate = r }
            }
            guard stack.count < Reader.maxDepth else {
                refusal = "the TTML file nests deeper than \(Reader.maxDepth) elements"; return parser.abortParsing()
            }
            let base = stack.last?.base ?? 0
            let begin = attribute(attributes, "begin").flatMap { CaptionTime.ttml($0, frameRate: frameRate, tickRate: tickRate) }
            if name == "p", paragraph == nil {
                let end = attribute(attributes, "end").flatMap { CaptionTime.ttml($0, frameRate: frameRate, tickRate: tickRate) }.map {
                    $0 + base
                }
                let dur = attribute(attributes, "dur").flatMap { CaptionTime.ttml($0, frameRate: frameRate, tickRate: tickRate) }
                let start = begin.map { $0 + base }
                let timing =
                    "begin=\(attribute(attributes, "begin") ?? "-") end=\(attribute(attributes, "end") ?? attribute(attributes, "dur") ?? "-")"
                paragraph = (start, end ?? both(start, dur).map { $0.0 + $0.1 }, "", timing)
            } else if name == "br", paragraph != nil {
                paragraph?.text.append(Reader.lineBreak)
            }
            stack.append((name, base + (name == "p" ? 0 : begin ?? 0)))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if paragraph != nil { paragraph?.text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard let open = stack.popLast() else { return }
            guard open.name == "p", let p = paragraph else { return }
            paragraph = nil
            number += 1
            guard cues.count < CaptionFormat.maxCues else { problems.append("cue \(number): over \(CaptionFormat.maxCues) cues"); return }
            // Whitespace inside a paragraph collapses, as XML text does; <br/> alone breaks lines.
            let text = p.text.split(separator: Reader.lineBreak, omittingEmptySubsequences: false)
                .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.joined(separator: "\n")
            let times = both(p.begin, p.end)
            switch CaptionFormat.cue(number, times, Substring(p.timing), payload: text.replacingOccurrences(of: "<", with: "&lt;")) {
            case .success(let c): cues.append(c)
            case .failure(let problem): problems.append(problem.message)
            }
        }

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) { parser.abortParsing() }
        func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
            parser.abortParsing()
        }

        private func local(_ name: String) -> String { name.split(separator: ":").last.map(String.init) ?? name }

        /// An attribute by its local name, whatever prefix (`ttp:frameRate`) it was written with.
        private func attribute(_ a: [String: String], _ name: String) -> String? {
            a[name] ?? a.first { local($0.key) == name }?.value
        }
    }
}

private func both(_ a: Int?, _ b: Int?) -> (Int, Int)? {
    guard let a, let b else { return nil }
    return (a, b)
}
