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

    func child(_ name: String) -> XMLTree? { kids.first { $0.name == name } }
    func children(_ name: String) -> [XMLTree] { kids.filter { $0.name == name } }

    /// The text with the whitespace around CDATA trimmed; nil when empty.
    var text: String? {
        let t = rawText.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? nil : t
    }

    /// A URI element's value (the same as `text`, named for what it holds).
    var uri: String? { text }

    /// Parses `data`; a DOCTYPE or ENTITY declaration is refused before libxml2 sees it.
    static func parse(_ data: Data) throws -> XMLTree {
        if containsDeclaration(data) {
            throw VASTError(VASTError.xmlParse, "the document declares a DOCTYPE or entities, which are refused")
        }
        // FoundationXML traps on element names that are not UTF-8 (found by the VAST fuzz
        // target): such bytes never reach it. VAST documents are UTF-8.
        guard String(validating: data, as: UTF8.self) != nil, !data.contains(0) else {
            throw VASTError(VASTError.xmlParse, "the document is not UTF-8 text")
        }
        // FoundationXML reads a processing instruction's data with strlen even when there is
        // none (`<?x?>`), and crashes (found by the fuzz target).
        if containsEmptyProcessingInstruction(data) {
            throw VASTError(VASTError.xmlParse, "the document holds a processing instruction without data")
        }
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = true
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let e = parser.parserError.map { ($0 as NSError).code } ?? -1
            let line = parser.lineNumber
            throw VASTError(VASTError.xmlParse, "the XML is not well-formed (line \(line), parser error \(e))")
        }
        return root
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

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
        stack.append(XMLTree(name: local, attributes: attributeDict))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].rawText += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].rawText += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let done = stack.popLast() else { return }
        if stack.isEmpty { root = done } else { stack[stack.count - 1].kids.append(done) }
    }

    // Entity declarations are refused before parsing; this stops any that slip through.
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) { parser.abortParsing() }
    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) { parser.abortParsing() }
}
