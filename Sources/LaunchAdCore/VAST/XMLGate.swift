import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The one way a document from outside reaches libxml2 (VAST through `XMLTree`, TTML captions):
/// the bytes are screened first (no DOCTYPE or entity, UTF-8 only, no empty processing
/// instruction, no tag libxml2 would take seconds over), then parsed with the `ParseBudget`'s
/// deadline checked at every callback.
enum XMLGate {
    /// The most attributes one start tag may carry: libxml2's duplicate-attribute check is
    /// quadratic, so 140,000 attributes on one element were one callback of 4-6 s. Real VAST
    /// and TTML elements carry fewer than 20.
    static let maxAttributes = 256
    /// The most bytes one tag may span, from `<` to `>`.
    static let maxTagBytes = 65_536

    /// Why a document was refused before or during its parse.
    struct Refusal: Error, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Screens `data` and parses it into `delegate` within `budget`. Returns XMLParser's verdict
    /// (false: not well-formed, or stopped by the delegate) and the parser (its line, its error);
    /// throws a refusal for what is never parsed or ran out of time.
    static func parse(
        _ data: Data, into delegate: XMLParserDelegate, budget: ParseBudget, what: String
    ) throws(Refusal) -> (ok: Bool, parser: XMLParser) {
        if data.count > budget.maxBytes { throw Refusal("\(what) is \(data.count) bytes, over the \(budget.maxBytes)-byte limit") }
        if XMLTree.containsDeclaration(data) { throw Refusal("\(what) declares a DOCTYPE or entities, which are refused") }
        // libxml2 would switch decoders on the declaration (UTF-7 turns `+ADwAIQ-` into `<!`,
        // past the check above): only UTF-8 is read.
        if let encoding = XMLTree.declaredEncoding(data), !["utf-8", "utf8"].contains(encoding.lowercased()) {
            throw Refusal("\(what) declares encoding '\(encoding.prefix(40))'; only UTF-8 is read")
        }
        // FoundationXML traps on element names that are not UTF-8 (found by the VAST fuzz target).
        guard String(validating: data, as: UTF8.self) != nil, !data.contains(0) else { throw Refusal("\(what) is not UTF-8 text") }
        // FoundationXML reads a processing instruction's data with strlen even when there is
        // none (`<?x?>`), and crashes (found by the fuzz target).
        if XMLTree.containsEmptyProcessingInstruction(data) { throw Refusal("\(what) holds a processing instruction without data") }
        if let tag = oversizedTag(data) { throw Refusal("\(what) holds \(tag), which is refused") }
        let guardDelegate = BudgetedDelegate(delegate, budget: budget, what: what)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = true
        parser.delegate = guardDelegate
        let ok = parser.parse()
        if let late = guardDelegate.refusal { throw late }
        return (ok, parser)
    }

    /// A linear look at every tag before libxml2's: the first one with more than `maxAttributes`
    /// attributes or longer than `maxTagBytes`, described; nil when none. Comments, CDATA
    /// sections, processing instructions and quoted attribute values are stepped over.
    static func oversizedTag(_ data: Data) -> String? {
        data.withUnsafeBytes { raw -> String? in
            let b = raw.bindMemory(to: UInt8.self)
            let n = b.count
            var i = 0
            func skip(past end: [UInt8], from start: Int) -> Int {
                var j = start
                while j + end.count <= n {
                    if b[j] == end[0] && (1..<end.count).allSatisfy({ b[j + $0] == end[$0] }) { return j + end.count }
                    j += 1
                }
                return n
            }
            while i < n {
                guard b[i] == UInt8(ascii: "<"), i + 1 < n else { i += 1; continue }
                let next = b[i + 1]
                if next == UInt8(ascii: "!") {
                    if i + 3 < n, b[i + 2] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: "-") {
                        i = skip(past: Array("-->".utf8), from: i + 4)
                    } else if i + 8 < n, b[i + 2] == UInt8(ascii: "[") {
                        i = skip(past: Array("]]>".utf8), from: i + 2)
                    } else {
                        i = skip(past: [UInt8(ascii: ">")], from: i + 2)
                    }
                    continue
                }
                if next == UInt8(ascii: "?") { i = skip(past: Array("?>".utf8), from: i + 2); continue }
                // A start or end tag: count attributes (each `=` outside quotes) up to its `>`.
                var j = i + 1
                var attributes = 0
                var quote: UInt8 = 0
                while j < n {
                    let c = b[j]
                    if quote != 0 {
                        if c == quote { quote = 0 }
                    } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                        quote = c
                    } else if c == UInt8(ascii: "=") {
                        attributes += 1
                        if attributes > maxAttributes { return "a tag with more than \(maxAttributes) attributes" }
                    } else if c == UInt8(ascii: ">") {
                        break
                    }
                    j += 1
                    if j - i > maxTagBytes { return "a tag longer than \(maxTagBytes) bytes" }
                }
                i = j + 1
            }
            return nil
        }
    }
}

/// Passes XMLParser's callbacks on while the budget lasts: the deadline is looked at on every
/// one (a tag is at most `XMLGate.maxTagBytes`, so no single callback runs long), and a late
/// parse is aborted there.
private final class BudgetedDelegate: NSObject, XMLParserDelegate {
    private let inner: XMLParserDelegate
    private let budget: ParseBudget
    private let what: String
    private(set) var refusal: XMLGate.Refusal?

    init(_ inner: XMLParserDelegate, budget: ParseBudget, what: String) {
        self.inner = inner; self.budget = budget; self.what = what
    }

    /// False (and the parse aborted) once the deadline has passed.
    private func inTime(_ parser: XMLParser) -> Bool {
        guard refusal == nil else { return false }
        guard budget.isExpired else { return true }
        refusal = XMLGate.Refusal("reading \(what) took longer than \(budget.limitName)")
        parser.abortParsing()
        return false
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard inTime(parser) else { return }
        inner.parser(parser, didStartElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName, attributes: attributeDict)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard inTime(parser) else { return }
        inner.parser(parser, didEndElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard inTime(parser) else { return }
        inner.parser(parser, foundCharacters: string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard inTime(parser) else { return }
        inner.parser(parser, foundCDATA: CDATABlock)
    }

    // Entity declarations are refused before parsing; this stops any that slip through.
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) { parser.abortParsing() }
    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        parser.abortParsing()
    }
}
