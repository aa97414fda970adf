/// A command's `--help` text read back as parts: the usage lines, the prose, the options and the
/// exit codes. The man pages and shell completions are rendered from this reading of the very
/// text `--help` prints, so they cannot drift from it.
struct HelpPage: Equatable {
    /// One way to write an option: `--size WxH` is name "--size", argument "WxH".
    struct Spelling: Equatable {
        var name: String
        var argument: String?
    }

    /// An option line (`  --size WxH   window size ...`) with its continuation lines.
    struct Option: Equatable {
        var spellings: [Spelling]
        var text: String
    }

    enum Block: Equatable {
        case prose(String)
        case options([Option])
    }

    var usage: [String] = []
    var blocks: [Block] = []
    var exitCodes: String?

    /// Every option line, in order.
    var entries: [Option] {
        blocks.flatMap { block -> [Option] in
            guard case .options(let list) = block else { return [] }
            return list
        }
    }

    /// Every option the text lists, in order, each spelling once.
    var options: [Spelling] { Self.unique(entries.flatMap(\.spellings)) }

    static func unique(_ spellings: [Spelling]) -> [Spelling] {
        var seen = Set<String>()
        return spellings.filter { seen.insert($0.name).inserted }
    }

    init(_ text: String) {
        // What an unindented line continues: the usage, the exit codes, or prose.
        enum Continues { case usage, exitCodes, prose }
        var continues = Continues.prose
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty {
                continues = .prose
            } else if line.hasPrefix("usage: ") {
                usage += Self.usageAlternatives(String(line.dropFirst("usage: ".count)))
                continues = .usage
            } else if continues == .usage, line.first == " ", trimmed.hasPrefix("launchad ") {
                usage += Self.usageAlternatives(trimmed)
            } else if line.hasPrefix("  -"), let option = Self.option(line) {
                continues = .prose
                appendOption(option)
            } else if line.hasPrefix("  "), case .options(var list)? = blocks.last {
                // An indented line under an option continues its description.
                list[list.count - 1].text += " " + trimmed
                blocks[blocks.count - 1] = .options(list)
            } else if trimmed.hasPrefix("Exit codes:") {
                exitCodes = String(trimmed.dropFirst("Exit codes:".count)).trimmingSpaces
                continues = .exitCodes
            } else if continues == .exitCodes, let earlier = exitCodes {
                exitCodes = earlier + " " + trimmed
            } else {
                continues = .prose
                appendProse(trimmed)
            }
        }
    }

    private mutating func appendOption(_ option: Option) {
        if case .options(var list)? = blocks.last {
            list.append(option)
            blocks[blocks.count - 1] = .options(list)
        } else {
            blocks.append(.options([option]))
        }
    }

    private mutating func appendProse(_ text: String) {
        if case .prose(let earlier)? = blocks.last {
            blocks[blocks.count - 1] = .prose(earlier + " " + text)
        } else {
            blocks.append(.prose(text))
        }
    }

    /// `launchad play FILE [options]    or    launchad play --vast URL [options]` is two usages.
    private static func usageAlternatives(_ text: String) -> [String] {
        text.components(separatedBy: "    or    ").map(\.trimmingSpaces).filter { !$0.isEmpty }
    }

    /// `  --a X, --b   description`: the spellings before the first run of two spaces, the text after.
    private static func option(_ line: String) -> Option? {
        let body = line.trimmingSpaces
        guard let gap = body.range(of: "  ") else { return nil }
        let spec = String(body[..<gap.lowerBound])
        let text = String(body[gap.upperBound...]).trimmingSpaces
        let spellings = spec.components(separatedBy: ", ").compactMap { part -> Spelling? in
            let words = part.split(separator: " ", maxSplits: 1).map(String.init)
            guard let name = words.first, name.hasPrefix("-") else { return nil }
            return Spelling(name: name, argument: words.count > 1 ? words[1] : nil)
        }
        return spellings.isEmpty ? nil : Option(spellings: spellings, text: text)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
