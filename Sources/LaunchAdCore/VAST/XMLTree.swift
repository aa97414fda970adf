import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A small element tree built by XMLParser: local names, attributes, text (CDATA included).
struct XMLTree {
    var name: String
    var attributes: [String: String]
    var kids: [XMLTree] = []
    var rawText = ""
    /// On the root only: the element names that matched a known name in another case (`impression`).
    var miscased: [String] = []

    func child(_ name: String) -> XMLTree? { kids.first { $0.name == name } }
    func children(_ name: String) -> [XMLTree] { kids.filter { $0.name == name } }

    /// The text with the whitespace around CDATA trimmed; nil when empty.
    var text: String? {
        let t = rawText.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? nil : t
    }

    /// A URI element's value (the same as `text`, named for what it holds).
    var uri: String? { text }

    /// Parses `data` through `XMLGate` within `budget`: a DOCTYPE or ENTITY declaration, an
    /// encoding other than UTF-8, a tag libxml2 would take seconds over, nesting deeper than
    /// `VASTLimits.depth` and parsing past the budget's deadline are refused (VAST 100). Element
    /// names that equal one of `names` but for case are read as that name (VAST 2 servers write
    /// `<impression>`) and listed in the root's `miscased`.
    static func parse(_ data: Data, names: Set<String> = [], budget: ParseBudget) throws -> XMLTree {
        let builder = TreeBuilder(names: names)
        let (ok, parser): (Bool, XMLParser)
        do { (ok, parser) = try XMLGate.parse(data, into: builder, budget: budget, what: "the document") } catch {
            throw VASTError(VASTError.xmlParse, error.message)
        }
        if let refusal = builder.refusal { throw refusal }
        guard ok, var root = builder.root else {
            let e = parser.parserError.map { ($0 as NSError).code } ?? -1
            throw VASTError(VASTError.xmlParse, "the XML is not well-formed (line \(parser.lineNumber), parser error \(e))")
        }
        root.miscased = builder.miscased.sorted()
        return root
    }

    /// The `encoding` of any XML declaration (`<?xml ... encoding="..."?>`), nil when none names one.
    static func declaredEncoding(_ data: Data) -> String? {
        let text = String(decoding: data.prefix(65536), as: UTF8.self)
        var rest = Substring(text)
        while let open = rest.range(of: "<?xml", options: .caseInsensitive) {
            let body = rest[open.upperBound...]
            let decl = body.prefix { $0 != ">" }
            rest = body
            guard let key = decl.range(of: "encoding", options: .caseInsensitive) else { continue }
            let after = decl[key.upperBound...].drop { $0.isWhitespace || $0 == "=" }
            guard let quote = after.first, quote == "\"" || quote == "'" else { return String(after.prefix(20)) }
            return String(after.dropFirst().prefix { $0 != quote })
        }
        return nil
    }

    /// `<?target?>`: a processing instruction with nothing after its target.
    static func containsEmptyProcessingInstruction(_ data: Data) -> Bool {
        let b = [UInt8](data)
        var i = 0
        while i + 1 < b.count {
            defer { i += 1 }
            guard b[i] == UInt8(ascii: "<"), b[i + 1] == UInt8(ascii: "?") else { continue }
            var j = i + 2
            while j < b.count, !isSpace(b[j]), b[j] != UInt8(ascii: "?") { j += 1 }
            while j < b.count, isSpace(b[j]) { j += 1 }
            if j + 1 < b.count, b[j] == UInt8(ascii: "?"), b[j + 1] == UInt8(ascii: ">") { return true }
        }
        return false
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// `<!DOCTYPE` or `<!ENTITY` anywhere (case-insensitive, UTF-8 or ASCII bytes).
    static func containsDeclaration(_ data: Data) -> Bool {
        let text = String(decoding: data, as: UTF8.self).uppercased()
        return text.contains("<!DOCTYPE") || text.contains("<!ENTITY")
    }
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    var stack: [XMLTree] = []
    var root: XMLTree?
    /// Why parsing was stopped: too deep.
    var refusal: VASTError?
    var miscased: Set<String> = []
    private let byLowercase: [String: String]

    init(names: Set<String>) {
        byLowercase = Dictionary(names.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Stops the parse for good with `error`.
    private func refuse(_ parser: XMLParser, _ error: VASTError) {
        if refusal == nil { refusal = error }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard refusal == nil else { return }
        guard stack.count < VASTLimits.depth else {
            return refuse(parser, VASTError(VASTError.xmlParse, "elements nested deeper than \(VASTLimits.depth) are refused"))
        }
        var local = elementName.split(separator: ":").last.map(String.init) ?? elementName
        if let known = byLowercase[local.lowercased()], known != local { miscased.insert(local); local = known }
        stack.append(XMLTree(name: local, attributes: attributeDict))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard refusal == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].rawText += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard refusal == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].rawText += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard refusal == nil, let done = stack.popLast() else { return }
        if stack.isEmpty { root = done } else { stack[stack.count - 1].kids.append(done) }
    }

}
