import LaunchAdCore
import LaunchAdEngine

/// The commands and options as `--help` lists them: what the man pages and completions are made of.
struct CommandCatalog {
    struct Entry: Equatable {
        var name: String
        /// The words after the name in `launchad --help` (`FILE`, `status|flush`).
        var arguments: String
        var summary: String
        /// Its `launchad COMMAND --help`, read; nil for `help`, which has none.
        var page: HelpPage?
        /// Options the command takes beyond those its page lists (launch and preview take play's).
        var borrowed: [HelpPage.Option]

        /// Everything the command's parser accepts, each spelling once.
        var options: [HelpPage.Spelling] { HelpPage.unique(entries.flatMap(\.spellings)) }

        /// Every option line with its text: the page's, then the borrowed ones.
        var entries: [HelpPage.Option] { (page?.entries ?? []) + borrowed }
    }

    /// `launchad --help`'s prose: what LaunchAd is, and the closing hint.
    let about: [String]
    let commands: [Entry]
    /// `launchad --help`'s own options (--help, --version).
    let options: [HelpPage.Option]

    static let launchad = CommandCatalog(usage: Command.usage)

    init(usage: String) {
        var about: [String] = []
        var commands: [Entry] = []
        var optionLines: [String] = []
        var section = ""
        for line in usage.split(separator: "\n").map(String.init) {
            if line.hasPrefix("usage: ") { continue }
            if !line.hasPrefix(" "), line.hasSuffix(":") { section = line; continue }
            guard line.hasPrefix("  ") else { section = ""; about.append(line); continue }
            if section == "Options:" { optionLines.append(line); continue }
            let body = line.trimmingSpaces
            guard section == "Commands:", let gap = body.range(of: "  ") else { about.append(body); continue }
            let head = body[..<gap.lowerBound].split(separator: " ", maxSplits: 1).map(String.init)
            let name = head[0]
            commands.append(
                Entry(
                    name: name, arguments: head.count > 1 ? head[1] : "",
                    summary: String(body[gap.upperBound...]).trimmingSpaces,
                    page: (try? Command.helpText(for: name)).map(HelpPage.init),
                    borrowed: Self.borrowed(by: name)))
        }
        self.about = about
        self.commands = commands
        self.options = HelpPage(optionLines.joined(separator: "\n")).entries
    }

    /// launch applies every player option; preview those that change a picture.
    private static func borrowed(by name: String) -> [HelpPage.Option] {
        let player = HelpPage(PlayOptions.playerHelp).entries
        switch name {
        case "launch": return player
        case "preview": return player.filter { !$0.spellings.contains { PreviewOptions.notForPreview.contains($0.name) } }
        default: return []
        }
    }
}
