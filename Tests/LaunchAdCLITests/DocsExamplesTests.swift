import Foundation
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// Every example the README and docs/ mark runnable (a fence opened with "```sh runnable"), and
/// every man page example with an exit status, runs as printed: offline, without a display, each
/// command ending with the status it is printed with (a trailing `# … exit N …` comment, else 0).
/// The docs' examples run from a folder where `Media` is the checkout's, as from the checkout's
/// root; the man pages' in a folder holding a copy of the package's samples. A marked block's
/// commands run in order in one folder (a prefetch before a schedule).
final class DocsExamplesTests: XCTestCase {
    struct Command: Equatable {
        var line: String
        var exit: Int32
    }

    /// The runnable blocks of a Markdown text: each block's first line number and its commands.
    static func runnableBlocks(_ markdown: String) -> [(line: Int, commands: [Command])] {
        var blocks: [(Int, [Command])] = []
        var current: (Int, [String])?
        for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil {
                if line.trimmingCharacters(in: .whitespaces) == "```sh runnable" { current = (number + 1, []) }
            } else if line.hasPrefix("```") {
                blocks.append((current!.0, commands(current!.1)))
                current = nil
            } else {
                current!.1.append(String(line))
            }
        }
        return blocks
    }

    /// Lines joined at a trailing backslash; blank and comment lines left out.
    static func commands(_ lines: [String]) -> [Command] {
        var joined: [String] = []
        var pending = ""
        for line in lines {
            if line.hasSuffix("\\") { pending += line.dropLast() + " "; continue }
            joined.append(pending + line)
            pending = ""
        }
        return joined.compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { return nil }
            return Command(line: text, exit: expectedExit(text))
        }
    }

    /// `… # exit 1: why` or `… # what; exit 0`: the status named in the trailing comment.
    static func expectedExit(_ line: String) -> Int32 {
        guard let comment = line.range(of: " #") else { return 0 }
        let words = line[comment.upperBound...].split(whereSeparator: { " :;,()".contains($0) })
        guard let at = words.firstIndex(of: "exit"), at + 1 < words.count, let n = Int32(words[at + 1]) else { return 0 }
        return n
    }

    private func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("launchad-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("home"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// Runs `commands` one after the other in `folder` with this build's launchad first on PATH.
    private func run(_ commands: [Command], in folder: URL, from source: String) throws {
        let bin = (Launchad.binary as NSString).deletingLastPathComponent
        var env = Launchad.headlessEnvironment(["PATH": "\(bin):/usr/bin:/bin", "HOME": folder.appendingPathComponent("home").path])
        for name in ["XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "NOTIFY_SOCKET", "WATCHDOG_USEC"] {
            env.removeValue(forKey: name)
        }
        for command in commands {
            let out = try Fixtures.run(
                "/bin/sh", ["-c", "cd \"$1\" && shift && eval \"$1\"", "sh", folder.path, command.line], environment: env)
            XCTAssertEqual(out.status, command.exit, "\(source): \(command.line)\n\(out.stderr.suffix(600))")
        }
    }

    func testTheMarkedExamplesOfTheReadmeAndDocsRunAsPrinted() throws {
        let root = Fixtures.repoRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        var count = 0
        for file in ["README.md"] + docs {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for block in Self.runnableBlocks(text) {
                XCTAssertFalse(block.commands.isEmpty, "\(file):\(block.line): an empty runnable block")
                let folder = try scratch()
                try FileManager.default.createSymbolicLink(
                    at: folder.appendingPathComponent("Media"), withDestinationURL: root.appendingPathComponent("Media"))
                try run(block.commands, in: folder, from: "\(file):\(block.line)")
                count += block.commands.count
            }
        }
        XCTAssertGreaterThanOrEqual(count, 12, "the README's and the docs' marked examples were found")
    }

    func testTheManPagesExamplesRunAsPrintedInACopyOfTheSamples() throws {
        let names: [String?] = [nil] + CommandCatalog.launchad.commands.filter { $0.page != nil }.map(\.name)
        var seen = Set<String>()
        for name in names {
            let runnable = ManExtras.of(name).examples.filter { $0.exit != nil && seen.insert($0.command).inserted }
            guard !runnable.isEmpty else { continue }
            let folder = try scratch()
            for sample in ManExtras.samples {
                try FileManager.default.copyItem(
                    at: Fixtures.repoRoot.appendingPathComponent("Media/\(sample)"), to: folder.appendingPathComponent(sample))
            }
            try run(
                runnable.map { Command(line: $0.command, exit: $0.exit!) }, in: folder, from: "man launchad\(name.map { "-" + $0 } ?? "")")
        }
        XCTAssertGreaterThanOrEqual(seen.count, 10, "the man pages' examples were found")
    }

    func testTheReaderOfBlocks() {
        let text =
            "a\n```sh runnable\n# a comment\nlaunchad probe x \\\n  --y   # what it does; exit 3\n\nlaunchad outbox status\n```\n```sh\nlaunchad play\n```\n"
        let blocks = Self.runnableBlocks(text)
        XCTAssertEqual(blocks.count, 1)
        XCTAssertEqual(blocks.first?.line, 2)
        XCTAssertEqual(
            blocks.first?.commands,
            [Command(line: "launchad probe x    --y   # what it does; exit 3", exit: 3), Command(line: "launchad outbox status", exit: 0)])
        XCTAssertEqual(Self.expectedExit("launchad validate a.mp4   # exit 1: the sample is no CTV spot"), 1)
    }
}
