/// Renders the help pages as man pages (roff with the man macros): launchad(1) from
/// `launchad --help`, launchad-COMMAND(1) from `launchad COMMAND --help`.
enum ManPage {
    /// `launchad help --man [COMMAND]`'s output; nil for a name that is not a command with a page.
    /// `events` is launchad-events(7).
    static func render(_ command: String?, catalog: CommandCatalog = .launchad) -> String? {
        guard let command else { return main(catalog) }
        if command == "events" { return EventsManPage.render() }
        guard let entry = catalog.commands.first(where: { $0.name == command }), let page = entry.page else { return nil }
        return commandPage(entry, page, catalog)
    }

    static func header(_ name: String, section: Int = 1) -> [String] {
        // .nh .ad l: no hyphenation and a ragged right edge, so an option is never split.
        [".TH \(name.uppercased().roffEscaped) \(section) \"\" \"launchad \(Command.versionString)\" \"LaunchAd Manual\"", ".nh", ".ad l"]
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
        out += [
            ".SH EXIT STATUS",
            prose(
                catalog,
                "0 the ad completed, was capped, skipped, clicked or ended by its host; 1 error; 2 usage (one line on stderr); "
                    + "3 no_ad or timeout. launch --then exits with the application's status. Each command's page says its own.")
        ]
        out += extras(ManExtras.of(nil), catalog)
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
        out += extras(ManExtras.of(entry.name), catalog)
        out += seeAlso(catalog, except: entry.name)
        return out.joined(separator: "\n")
    }

    /// EVENTS, ENVIRONMENT, FILES and EXAMPLES, those that have something to say.
    private static func extras(_ extras: ManExtras, _ catalog: CommandCatalog) -> [String] {
        var out: [String] = []
        if extras.writesEvents {
            out += [
                ".SH EVENTS",
                prose(
                    catalog,
                    "One JSON object per line on stdout (or the --events FILE): {\"event\": NAME, \"t_ms\": MS, ...}. "
                        + "A run ends with exactly one end event, its last line, carrying the outcome."),
                "Every kind of event and its fields: \\fBlaunchad\\-events\\fR(7)."
            ]
        }
        let variables = extras.environment.compactMap { name in ManExtras.variables.first { $0.name == name } }
        if !variables.isEmpty {
            out += [".SH ENVIRONMENT"] + variables.flatMap { [".TP", "\\fB\($0.name.roffEscaped)\\fR", prose(catalog, $0.text)] }
        }
        let paths = extras.files.compactMap { name in ManExtras.paths.first { $0.name == name } }
        if !paths.isEmpty { out += [".SH FILES"] + paths.flatMap { [".TP", "\\fI\($0.name.roffEscaped)\\fR", prose(catalog, $0.text)] } }
        if !extras.examples.isEmpty {
            out += [".SH EXAMPLES"]
            if extras.examples.contains(where: { e in ManExtras.samples.contains { e.command.contains($0) } }) {
                out += [
                    prose(catalog, "The file names are the package's samples, as in a folder holding a copy of them:"),
                    ".PP", ".RS 4", ".EX", "cp \(ManExtras.samplesFolder)/* .".roffEscaped, ".EE", ".RE"
                ]
            }
            for example in extras.examples {
                if !example.what.isEmpty { out += [".PP", prose(catalog, example.what)] }
                out += [".PP", ".RS 4", ".EX", example.command.roffEscaped, ".EE", ".RE"]
            }
        }
        return out
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
        return [
            ".SH SEE ALSO",
            pages.map { "\\fB\($0)\\fR(1)" }.joined(separator: ", ") + ", \\fBlaunchad\\-events\\fR(7), ffprobe(1), systemd.service(5)"
        ]
    }

    /// A paragraph of help text as roff: escaped, and "launchad X --help" pointing at X's page.
    static func prose(_ catalog: CommandCatalog, _ text: String) -> String {
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
