/// Renders the help pages as man pages (roff with the man macros): launchad(1) from
/// `launchad --help`, launchad-COMMAND(1) from `launchad COMMAND --help`.
enum ManPage {
    /// `launchad help --man [COMMAND]`'s output; nil for a name that is not a command with a page.
    static func render(_ command: String?, catalog: CommandCatalog = .launchad) -> String? {
        guard let command else { return main(catalog) }
        guard let entry = catalog.commands.first(where: { $0.name == command }), let page = entry.page else { return nil }
        return commandPage(entry, page, catalog)
    }

    private static func header(_ name: String) -> [String] {
        // .nh .ad l: no hyphenation and a ragged right edge, so an option is never split.
        [".TH \(name.uppercased().roffEscaped) 1 \"\" \"launchad \(Command.versionString)\" \"LaunchAd Manual\"", ".nh", ".ad l"]
    }

    private static func main(_ catalog: CommandCatalog) -> String {
        var out = header("launchad")
        out += [".SH NAME", "launchad \\- launch ads on Linux: play, check and deliver video and image ads"]
        out += [".SH SYNOPSIS", "\\fBlaunchad\\fR \\fICOMMAND\\fR [\\fIoptions\\fR]", ".br", "\\fBlaunchad\\fR \\-\\-version"]
        out += [".SH DESCRIPTION", prose(catalog, catalog.about.joined(separator: " "))]
        out += [".SH COMMANDS"]
        for entry in catalog.commands {
            out += [".TP", "\\fB\(entry.name.roffEscaped)\\fR \(entry.arguments.roffEscaped)", prose(catalog, entry.summary) + "."]
            if entry.page != nil { out += ["See \\fBlaunchad\\-\(entry.name.roffEscaped)\\fR(1)."] }
        }
        out += [".SH OPTIONS"] + catalog.options.flatMap { option($0, catalog) }
        out += seeAlso(catalog, except: nil)
        return out.joined(separator: "\n")
    }

    private static func commandPage(_ entry: CommandCatalog.Entry, _ page: HelpPage, _ catalog: CommandCatalog) -> String {
        var out = header("launchad-\(entry.name)")
        out += [".SH NAME", "launchad\\-\(entry.name.roffEscaped) \\- \(entry.summary.roffEscaped)"]
        out += [".SH SYNOPSIS"]
        out += page.usage.enumerated().flatMap { i, usage in
            (i > 0 ? [".br"] : []) + [synopsis(usage)]
        }
        out += [".SH DESCRIPTION"]
        var optionsSeen = false
        for (i, block) in page.blocks.enumerated() {
            switch block {
            case .prose(let text):
                out += (i == 0 ? [] : [".PP"]) + [prose(catalog, text)]
            case .options(let list):
                if !optionsSeen { out += [".SH OPTIONS"]; optionsSeen = true } else { out += [".PP"] }
                out += list.flatMap { option($0, catalog) }
            }
        }
        if let exit = page.exitCodes { out += [".SH EXIT STATUS", prose(catalog, exit)] }
        out += seeAlso(catalog, except: entry.name)
        return out.joined(separator: "\n")
    }

    private static func option(_ option: HelpPage.Option, _ catalog: CommandCatalog) -> [String] {
        let spellings = option.spellings.map { s in
            "\\fB\(s.name.roffEscaped)\\fR" + (s.argument.map { " \\fI\($0.roffEscaped)\\fR" } ?? "")
        }
        return [".TP", spellings.joined(separator: ", "), prose(catalog, option.text)]
    }

    /// `launchad play FILE [options]`: the command in bold, the rest as written.
    private static func synopsis(_ usage: String) -> String {
        let words = usage.split(separator: " ", maxSplits: 2).map(String.init)
        guard words.count >= 2, words[0] == "launchad" else { return usage.roffEscaped }
        return "\\fBlaunchad \(words[1].roffEscaped)\\fR" + (words.count > 2 ? " " + words[2].roffEscaped : "")
    }

    private static func seeAlso(_ catalog: CommandCatalog, except: String?) -> [String] {
        let pages =
            (except == nil ? [] : ["launchad"])
            + catalog.commands.filter { $0.page != nil && $0.name != except }.map { "launchad\\-\($0.name.roffEscaped)" }
        return [".SH SEE ALSO", pages.map { "\\fB\($0)\\fR(1)" }.joined(separator: ", ") + ", ffprobe(1), systemd.service(5)"]
    }

    /// A paragraph of help text as roff: escaped, and "launchad X --help" pointing at X's page.
    private static func prose(_ catalog: CommandCatalog, _ text: String) -> String {
        var text = text
        for entry in catalog.commands where entry.page != nil {
            text = text.replacingAll("launchad \(entry.name) --help", with: "\u{1}launchad\u{3}\(entry.name)\u{2}(1)")
        }
        return text.roffEscaped
            .replacingAll("\u{1}", with: "\\fB")
            .replacingAll("\u{2}", with: "\\fR")
            .replacingAll("\u{3}", with: "\\-")
    }
}

extension String {
    /// Text as roff reads it literally: backslashes doubled; every dash of a word that starts with
    /// one (`--size`, `--layout`, `-24`) a minus sign, so it can be copied; a leading dot or quote
    /// not taken as a request.
    var roffEscaped: String {
        var out = ""
        var previous: Character = " "
        var dashWord = false
        for c in self {
            if c == " " || c == "," || c == ")" || c == "]" || c == "|" || c == "=" { dashWord = false }
            if c == "-", previous == " " || previous == "(" || previous == "[" || previous == "|" || previous == "=" { dashWord = true }
            switch c {
            case "\\": out += "\\e"
            case "-" where dashWord: out += "\\-"
            default: out.append(c)
            }
            previous = c
        }
        if out.first == "." || out.first == "'" { out = "\\&" + out }
        return out
    }
}
