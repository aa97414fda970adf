import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// The man pages and completions are read from the --help texts: every option a help text lists
/// reaches them, and every option a completion offers is one the parser takes.
final class HelpPagesTests: XCTestCase {
    private let catalog = CommandCatalog.launchad
    private var paged: [CommandCatalog.Entry] { catalog.commands.filter { $0.page != nil } }

    func testEveryCommandIsRead() {
        XCTAssertEqual(
            catalog.commands.map(\.name),
            ["play", "probe", "validate", "snapshot", "preview", "launch", "prefetch", "outbox", "schedule", "fleet", "manifest", "help"])
        XCTAssertEqual(paged.count, 11, "every command but help has a page")
        XCTAssertEqual(catalog.options.flatMap(\.spellings).map(\.name), ["--help", "-h", "--version"])
    }

    func testEveryOptionLineIsReadAsAnOption() throws {
        for entry in paged {
            let help = try Command.helpText(for: entry.name)
            let listed = help.split(separator: "\n").filter { $0.hasPrefix("  --") }
            for line in listed {
                let first = String(line.split(separator: " ")[0].split(separator: ",")[0])
                XCTAssertTrue(
                    entry.page!.options.contains { $0.name == first },
                    "\(entry.name): '\(line)' is not read as an option (two spaces must follow its argument)")
            }
            XCTAssertFalse(entry.page!.usage.isEmpty, "\(entry.name) has a usage line")
            XCTAssertNotNil(entry.page!.exitCodes, "\(entry.name) lists its exit codes")
        }
    }

    func testReadingAHelpText() {
        let page = HelpPage(
            """
            usage: launchad x FILE    or    launchad x --y
            Does x.
              --a N, --b   both
                           continued
              --c          c
            Exit codes: 0 fine,
            1 not.
            """)
        XCTAssertEqual(page.usage, ["launchad x FILE", "launchad x --y"])
        XCTAssertEqual(page.blocks.first, .prose("Does x."))
        XCTAssertEqual(page.entries.map(\.text), ["both continued", "c"])
        XCTAssertEqual(
            page.options,
            [
                .init(name: "--a", argument: "N"), .init(name: "--b", argument: nil),
                .init(name: "--c", argument: nil)
            ])
        XCTAssertEqual(page.exitCodes, "0 fine, 1 not.")
    }

    func testManPageHoldsEveryOptionOfHelp() throws {
        for entry in paged {
            let man = try XCTUnwrap(ManPage.render(entry.name))
            XCTAssertTrue(man.hasPrefix(".TH LAUNCHAD-\(entry.name.uppercased()) 1 "), String(man.prefix(80)))
            XCTAssertTrue(man.contains("launchad\\-\(entry.name) \\- "), "NAME line of \(entry.name)")
            for option in entry.page!.options {
                XCTAssertTrue(
                    man.contains("\\fB\(option.name.replacingAll("-", with: "\\-"))\\fR"),
                    "launchad-\(entry.name)(1) lacks \(option.name)")
            }
            XCTAssertTrue(man.contains(".SH EXIT STATUS"), entry.name)
            XCTAssertFalse(man.contains("\n." + " "), "no request line starts with a space")
        }
        let main = try XCTUnwrap(ManPage.render(nil))
        for entry in catalog.commands { XCTAssertTrue(main.contains("\\fB\(entry.name)\\fR"), "launchad(1) lacks \(entry.name)") }
        XCTAssertTrue(main.contains("\\fB\\-\\-version\\fR"))
        XCTAssertTrue(
            try XCTUnwrap(ManPage.render("launch")).contains("\\fBlaunchad\\-play\\fR(1)"),
            "'see launchad play --help' points at the play page")
    }

    func testRoffEscapes() {
        XCTAssertEqual("--layout logo-bottom, -24 LKFS".roffEscaped, "\\-\\-layout logo-bottom, \\-24 LKFS")
        XCTAssertEqual(".hidden".roffEscaped, "\\&.hidden")
        XCTAssertEqual("a\\b".roffEscaped, "a\\eb")
    }

    func testCompletionsOfferWhatTheParserTakes() throws {
        for entry in paged {
            let helpOptions = Set(entry.page!.options.map(\.name))
            XCTAssertTrue(helpOptions.isSubset(of: Set(entry.options.map(\.name))), entry.name)
            for option in entry.options {
                let args = [entry.name, option.name] + (option.argument == nil ? [] : ["x"])
                do { _ = try Command.parse(args) } catch let e as UsageError {
                    XCTAssertFalse(
                        e.message.contains("unknown option") || e.message.contains("does not change"),
                        "\(entry.name) completes \(option.name), which its parser refuses: \(e.message)")
                }
            }
        }
        let launch = try XCTUnwrap(catalog.commands.first { $0.name == "launch" })
        XCTAssertTrue(launch.options.contains { $0.name == "--rotate" }, "launch takes play's options")
        let preview = try XCTUnwrap(catalog.commands.first { $0.name == "preview" })
        XCTAssertFalse(preview.options.contains { $0.name == "--fullscreen" }, "preview refuses --fullscreen")
        XCTAssertTrue(preview.options.contains { $0.name == "--skip-style" })
    }

    /// --device and --profile complete the names their parsers take, every one of them, in every
    /// command that has the option; a name not in the list is refused, naming the option.
    func testNamedValuesAreWhatTheParsersTake() throws {
        func refusal(_ args: [String], _ option: String) -> String? {
            do { _ = try Command.parse(args) } catch let e as UsageError where e.message.contains(option) { return e.message } catch {}
            return nil
        }
        var checked = 0
        for entry in paged {
            for option in entry.options {
                guard let values = Completions.named[option.name] else { continue }
                XCTAssertEqual(Completions.Value(option), .words(values))
                for value in values { XCTAssertNil(refusal([entry.name, option.name, value], option.name), "\(entry.name) \(value)") }
                XCTAssertNotNil(refusal([entry.name, option.name, "no-such-name"], option.name), entry.name)
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 4, "play, launch and prefetch --device, validate --profile")
    }

    func testValueKinds() {
        XCTAssertEqual(Completions.Value(nil), .none)
        XCTAssertEqual(Completions.Value("FILE"), .file)
        XCTAssertEqual(Completions.Value("URL|FILE"), .file)
        XCTAssertEqual(Completions.Value("FILE.png"), .file)
        XCTAssertEqual(Completions.Value("DIR"), .directory)
        XCTAssertEqual(Completions.Value("fit|fill"), .words(["fit", "fill"]))
        XCTAssertEqual(Completions.Value("0|90|180|270"), .words(["0", "90", "180", "270"]))
        XCTAssertEqual(Completions.Value("WxH"), .other)
        XCTAssertEqual(Completions.Value("CMD ARGS..."), .command)
    }

    func testShortDescriptions() {
        XCTAssertEqual(
            Completions.short("text (default), json, junit (JUnit XML for CI) or html (one page; best with --output)"),
            "text, json, junit or html")
        XCTAssertEqual(Completions.short("a VAST 2.0-4.3 tag: wrappers followed, a media file chosen"), "a VAST 2.0-4.3 tag")
        XCTAssertEqual(Completions.short("your own rules: {...}"), "your own rules")
        XCTAssertEqual(Completions.short("seconds: short"), "seconds: short", "a stop too early is kept")
        XCTAssertEqual(Completions.short(String(repeating: "a", count: 70)).count, 60)
    }

    func testGeneratedHelpCommands() throws {
        guard case .help(let man) = try Command.parse(["help", "--man", "play"]) else { return XCTFail() }
        XCTAssertEqual(man, ManPage.render("play"))
        guard case .help(let fish) = try Command.parse(["help", "--completion", "fish"]) else { return XCTFail() }
        XCTAssertEqual(fish, Completions.render(.fish))
        for bad in [
            ["help", "--man", "bogus"], ["help", "--man", "help"], ["help", "--completion", "tcsh"],
            ["help", "--completion"], ["help", "--man", "play", "probe"]
        ] {
            XCTAssertThrowsError(try Command.parse(bad), "\(bad)") { XCTAssertTrue($0 is UsageError) }
        }
    }
}
