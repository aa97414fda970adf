import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// What the package ships, tried as a user's tools see it: --version against the installed
/// libraries, man pages through groff, completions inside bash, zsh and fish, the units through
/// systemd-analyze, and package.sh's refusal when a build tool is missing.
final class PackagingTests: XCTestCase {
    private let root = Fixtures.repoRoot

    private func tool(_ name: String) throws -> String {
        for dir in ["/usr/bin", "/bin", "/usr/sbin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        throw XCTSkip("\(name) is not installed (bash scripts/setup.sh --test installs it)")
    }

    /// `launchad help ARGS` written to a file, as package.sh does.
    private func generated(_ args: [String], name: String) throws -> String {
        let run = try Launchad.run(["help"] + args)
        XCTAssertEqual(run.status, 0, run.stderr)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("launchad-packaging-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try Data(run.stdout.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func installed(_ package: String) throws -> String {
        try Fixtures.run(try tool("dpkg-query"), ["-W", "-f", "${Version}", package]).stdout
    }

    func testVersionNamesTheLibrariesItRunsWith() throws {
        let run = try Launchad.run(["--version"])
        XCTAssertEqual(run.status, 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, run.stdout)
        XCTAssertEqual(lines.first, "launchad \(Command.versionString) (event schema \(LaunchEvent.schemaVersion))")
        let ffmpeg = try Fixtures.run(try tool("ffmpeg"), ["-version"]).stdout
        let ffmpegVersion = ffmpeg.split(separator: " ")[2]
        XCTAssertTrue(lines[1].hasPrefix("FFmpeg \(ffmpegVersion) (libavutil "), "\(lines[1]) vs \(ffmpegVersion)")
        let sdl = try installed("libsdl2-2.0-0").split(separator: "+")[0]
        XCTAssertTrue(lines[2].hasPrefix("SDL \(sdl) (SDL2_ttf "), "\(lines[2]) vs \(sdl)")
        let curl = try installed("libcurl4").split(separator: "-")[0]
        XCTAssertTrue(lines[3].hasPrefix("libcurl \(curl) ("), "\(lines[3]) vs \(curl)")
    }

    func testOneVersionInTheChangelogs() throws {
        let debian = try String(contentsOf: root.appendingPathComponent("packaging/debian/changelog"), encoding: .utf8)
        XCTAssertTrue(debian.hasPrefix("launchad (\(Command.versionString)) "), String(debian.prefix(40)))
        let human = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        XCTAssertEqual(human.split(separator: "\n").first { $0.hasPrefix("## ") }, "## \(Command.versionString)")
    }

    /// A generated page as man shows it, 100 columns wide; groff may not warn.
    private func rendered(_ args: [String], name: String) throws -> String {
        let page = try generated(["--man"] + args, name: name)
        let out = try Fixtures.run(
            try tool("groff"), ["-man", "-Tutf8", "-ww", "-P-cbou", "-rLL=100n", page],
            environment: ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stderr, "", "groff warns about \(name)")
        return out.stdout
    }

    func testManPagesRenderWithoutWarningsAndListEveryOption() throws {
        for entry in CommandCatalog.launchad.commands where entry.page != nil {
            let text = try rendered([entry.name], name: "launchad-\(entry.name).1")
            for option in entry.page!.options {
                XCTAssertTrue(text.contains(option.name), "man launchad-\(entry.name) does not show \(option.name)")
            }
            for section in ["\nEXIT STATUS\n", "\nEXAMPLES\n", "\nSEE ALSO\n"] {
                XCTAssertTrue(text.contains(section), "man launchad-\(entry.name) has no \(section)")
            }
            let extras = ManExtras.of(entry.name)
            XCTAssertEqual(text.contains("\nEVENTS\n"), extras.writesEvents, entry.name)
            for example in extras.examples { XCTAssertTrue(text.contains(example.command), "\(entry.name): \(example.command)") }
        }
        let main = try rendered([], name: "launchad.1")
        for section in ["EXIT STATUS", "EVENTS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            XCTAssertTrue(main.contains("\n\(section)\n"), "man launchad has no \(section)")
        }
        XCTAssertTrue(main.contains("launchad-events(7)"))
        XCTAssertTrue(main.contains("XDG_CACHE_HOME") && main.contains("/var/lib/launchad/metrics/launchad.prom"))
        XCTAssertTrue(try rendered(["events"], name: "launchad-events.7").contains("LAUNCHAD-EVENTS(7)"))
    }

    /// What bash offers for `words` (the last one being completed), through the generated script.
    private func bashCompletes(_ words: [String], script: String) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program =
            "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _launchad; printf '%s\\n' \"${COMPREPLY[@]}\""
        let out = try Fixtures.run(try tool("bash"), ["--norc", "-c", program])
        XCTAssertEqual(out.stderr, "", words.joined(separator: " "))
        return out.stdout.split(separator: "\n").map(String.init)
    }

    func testBashCompletesCommandsOptionsAndValues() throws {
        let script = try generated(["--completion", "bash"], name: "launchad.bash")
        XCTAssertEqual(Set(try bashCompletes(["launchad", "p"], script: script)), ["play", "probe", "preview", "prefetch"])
        XCTAssertEqual(
            Set(try bashCompletes(["launchad", "play", "--skip-"], script: script)),
            ["--skip-style", "--skip-after", "--skip-label"])
        XCTAssertEqual(try bashCompletes(["launchad", "play", "--fit", ""], script: script), ["fit", "fill"])
        XCTAssertEqual(try bashCompletes(["launchad", "validate", "--profile", ""], script: script), ["iab-ctv", "launch-ad", "app-open"])
        XCTAssertEqual(
            Set(try bashCompletes(["launchad", "launch", "--device", "iphone"], script: script)),
            Set(DevicePreset.allCases.map(\.rawValue).filter { $0.hasPrefix("iphone") }))
        XCTAssertEqual(
            Set(try bashCompletes(["launchad", "prefetch", "--device", ""], script: script)), Set(DevicePreset.allCases.map(\.rawValue)))
        XCTAssertEqual(try bashCompletes(["launchad", "outbox", ""], script: script), ["status", "flush"])
        XCTAssertEqual(try bashCompletes(["launchad", "manifest", "ver"], script: script), ["verify"])
        XCTAssertEqual(try bashCompletes(["launchad", "manifest", "verify", "m.json", "--tr"], script: script), ["--trust-key"])
        XCTAssertEqual(try bashCompletes(["launchad", "launch", "--rot"], script: script), ["--rotate"], "launch takes play's options")
        XCTAssertEqual(try bashCompletes(["launchad", "help", "val"], script: script), ["validate"])
        XCTAssertEqual(
            Set(try bashCompletes(["launchad", "play", "\(Fixtures.media("sample-a"))"], script: script)),
            [Fixtures.media("sample-ad.mp4"), Fixtures.media("sample-ad.vtt")], "a FILE is completed from the disk")
    }

    func testFishCompletesCommandsOptionsAndValues() throws {
        let script = try generated(["--completion", "fish"], name: "launchad.fish")
        func complete(_ line: String) throws -> [String] {
            let out = try Fixtures.run(try tool("fish"), ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"])
            XCTAssertEqual(out.stderr, "", line)
            return out.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        XCTAssertTrue(try complete("launchad ").contains("validate"))
        XCTAssertEqual(Set(try complete("launchad play --skip-")), ["--skip-style", "--skip-after", "--skip-label"])
        XCTAssertEqual(Set(try complete("launchad validate --loudness ")), ["atsc", "ebu"])
        XCTAssertEqual(Set(try complete("launchad validate --profile ")), ["iab-ctv", "launch-ad", "app-open"])
        XCTAssertEqual(Set(try complete("launchad play --device ")), Set(DevicePreset.allCases.map(\.rawValue)))
        XCTAssertEqual(Set(try complete("launchad outbox ")).intersection(["status", "flush"]), ["status", "flush"])
        XCTAssertTrue(try complete("launchad manifest ").contains("verify"))
    }

    func testZshRegistersTheCompletion() throws {
        let script = try generated(["--completion", "zsh"], name: "_launchad")
        let dir = (script as NSString).deletingLastPathComponent
        let zsh = try tool("zsh")
        XCTAssertEqual(try Fixtures.run(zsh, ["-n", script]).status, 0, "zsh parses _launchad")
        let out = try Fixtures.run(
            zsh,
            ["-f", "-c", "fpath=('\(dir)' $fpath); autoload -Uz compinit; compinit -u -d '\(dir)/zcompdump'; print -r -- $_comps[launchad]"]
        )
        XCTAssertEqual(out.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "_launchad", out.stderr)
        let text = try String(contentsOfFile: script, encoding: .utf8)
        XCTAssertTrue(text.contains(":NAME:(iab-ctv launch-ad app-open)'"), "_launchad offers the profiles")
        XCTAssertTrue(
            text.contains(":NAME:(\(DevicePreset.allCases.map(\.rawValue).joined(separator: " ")))'"), "_launchad offers the devices")
        for entry in CommandCatalog.launchad.commands {
            for option in entry.options { XCTAssertTrue(text.contains("'\(option.name)["), "_launchad lacks \(entry.name) \(option.name)") }
        }
    }

    func testUnitsVerify() throws {
        let analyze = try tool("systemd-analyze")
        let units = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("packaging/systemd").path).sorted()
        XCTAssertEqual(
            units,
            [
                "launchad-cage.service", "launchad-kiosk.service", "launchad-outbox-flush.service",
                "launchad-outbox-flush.timer", "launchad-prefetch.service", "launchad-prefetch.timer",
                "launchad-weston.service"
            ])
        for unit in units {
            let path = root.appendingPathComponent("packaging/systemd/\(unit)").path
            let out = try Fixtures.run(analyze, ["verify", "--man=no", path])
            // Here the package is not installed, so its own commands (and xinit, if absent) are
            // missing; scripts/package-test.sh verifies the installed units with nothing left out.
            let lines = (out.stdout + out.stderr).split(separator: "\n")
            let problems = lines.filter { line in
                guard let r = line.range(of: "Command "), let end = line.range(of: " is not executable") else { return true }
                let command = String(line[r.upperBound..<end.lowerBound])
                let shipped = command == "/usr/bin/launchad" || command.hasPrefix("/usr/libexec/launchad/")
                return !(shipped || !FileManager.default.fileExists(atPath: command))
            }
            XCTAssertEqual(problems, [], unit)
            if lines.isEmpty { XCTAssertEqual(out.status, 0, unit) }
        }
        // The prefetch timer's events go to stdout, the journal, which keeps every run's: a file
        // named by --events would be rewritten by each run.
        let prefetch = try String(
            contentsOfFile: root.appendingPathComponent("packaging/systemd/launchad-prefetch.service").path, encoding: .utf8)
        let execStart = prefetch.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
        XCTAssertEqual(execStart.count, 1)
        XCTAssertFalse(execStart.joined().contains("--events"), "\(execStart)")
        // The timer trusts the keys the kiosk's launch trusts (issue 40): $LAUNCHAD_TRUST, split at
        // spaces by systemd (an empty one is no word), as kiosk-launch passes it.
        XCTAssertTrue(execStart.joined().hasSuffix(" $LAUNCHAD_TRUST"), "\(execStart)")
        XCTAssertTrue(prefetch.contains("\nEnvironment=LAUNCHAD_TRUST=\n"))
        XCTAssertFalse(prefetch.contains("StandardOutput="), "stdout is the journal, as systemd's default")
        let kiosk = try String(contentsOfFile: root.appendingPathComponent("packaging/systemd/launchad-cage.service").path, encoding: .utf8)
        XCTAssertTrue(kiosk.contains("Type=notify\n") && kiosk.contains("WatchdogSec="))
        for script in ["kiosk-launch", "x11-session"] {
            XCTAssertEqual(try Fixtures.run("/bin/sh", ["-n", root.appendingPathComponent("packaging/libexec/\(script)").path]).status, 0)
        }
    }

    /// Each unit's exposure as `systemd-analyze security --offline=yes` scores it (the user units
    /// as the user manager would) is the figure docs/packaging.md states, and its sandbox is there.
    func testUnitsAreSandboxedAsPackagingMdSays() throws {
        let analyze = try tool("systemd-analyze")
        let docs = try String(contentsOf: root.appendingPathComponent("docs/packaging.md"), encoding: .utf8)
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("launchad-analyze-\(getpid())")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: runtime) }
        for (unit, user) in [
            ("launchad-kiosk", false), ("launchad-weston", false), ("launchad-cage", false), ("launchad-prefetch", true),
            ("launchad-outbox-flush", true)
        ] {
            let path = root.appendingPathComponent("packaging/systemd/\(unit).service").path
            let out = try Fixtures.run(
                analyze, (user ? ["--user"] : []) + ["security", "--offline=yes", "--no-pager", path],
                environment: ["XDG_RUNTIME_DIR": runtime.path, "PATH": "/usr/bin:/bin"])
            let last = out.stdout.split(separator: "\n").last.map(String.init) ?? ""
            guard let r = last.range(of: "\(unit).service: ") else { return XCTFail("\(unit): \(out.stdout.suffix(200)) \(out.stderr)") }
            let score = last[r.upperBound...].split(separator: " ")[0]
            XCTAssertTrue(docs.contains("| `\(unit).service` | \(user ? "user" : "system") | \(score) |"), "\(unit) scores \(score)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for line in ["PrivateTmp=yes\n", user ? "ProtectSystem=strict\n" : "ProtectSystem=full\n"] {
                XCTAssertTrue(text.contains(line), "\(unit) lacks \(line)")
            }
            if user { XCTAssertTrue(text.contains("ProtectHome=read-only\n") && text.contains("NoNewPrivileges=yes\n"), unit) }
        }
    }

    func testPackageScriptNamesAMissingBuildTool() throws {
        // A PATH with every command of /usr/bin except dpkg-shlibdeps.
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("launchad-nodpkg-\(getpid())")
        try? FileManager.default.removeItem(at: bin)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        for name in try FileManager.default.contentsOfDirectory(atPath: "/usr/bin") where name != "dpkg-shlibdeps" {
            try FileManager.default.createSymbolicLink(
                atPath: bin.appendingPathComponent(name).path, withDestinationPath: "/usr/bin/\(name)")
        }
        let out = try Fixtures.run(
            "/bin/bash", [root.appendingPathComponent("scripts/package.sh").path, "--no-build", "--no-lintian"],
            environment: ["PATH": bin.path, "HOME": NSTemporaryDirectory()])
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stderr, "package: missing build dependency: dpkg-shlibdeps (apt install dpkg-dev)\n")
    }
}
