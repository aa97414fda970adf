import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

final class PlayOptionsTests: XCTestCase {
    private func parse(_ args: [String]) throws -> PlayOptions {
        guard let o = try PlayOptions.parse(args) else {
            XCTFail("\(args) asked for help")
            return PlayOptions()
        }
        return o
    }

    /// The usage error `args` gives: one line that names what is wrong.
    private func usageError(_ args: [String], file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try PlayOptions.parse(args)
            XCTFail("\(args) was accepted", file: file, line: line)
        } catch let e as UsageError {
            XCTAssertFalse(e.message.isEmpty, file: file, line: line)
            XCTAssertFalse(e.message.contains("\n"), "one line: \(e.message)", file: file, line: line)
            XCTAssertEqual(e.description, e.message, file: file, line: line)
            return e.message
        } catch {
            XCTFail("\(args) threw \(error), not a usage error", file: file, line: line)
        }
        return ""
    }

    func testDefaults() throws {
        let o = try parse(["ad.mp4"])
        XCTAssertEqual(o.file, "ad.mp4")
        XCTAssertNil(o.eventsPath)
        XCTAssertNil(o.size)
        XCTAssertNil(o.device)
        XCTAssertFalse(o.fullscreen)
        XCTAssertEqual(o.fit, .fit)
        XCTAssertEqual(o.layout, .fullscreen)
        XCTAssertNil(o.logo)
        XCTAssertEqual(o.skipStyle, .text)
        XCTAssertEqual(o.skipAfter, 0)
        XCTAssertTrue(o.showSkip)
        XCTAssertEqual(o.skipLabel, "Skip")
        XCTAssertNil(o.font)
        XCTAssertNil(o.maxDuration)
        XCTAssertEqual(o.imageDuration, 5)
        XCTAssertNil(o.link)
        XCTAssertFalse(o.openLinks)
        XCTAssertTrue(o.pauseOnBlur)
        XCTAssertEqual(o.transition, .fade)
        XCTAssertNil(o.fallback)
        XCTAssertEqual(o.wait, 3)
        XCTAssertFalse(o.controlStdin)
        XCTAssertFalse(o.muted)
    }

    func testEveryOption() throws {
        let o = try parse([
            "--events", "/tmp/ev.jsonl", "--size", "540X960", "--fullscreen", "--fit", "fill",
            "--layout", "logo-bottom", "--logo", "logo.png", "--skip-style", "ring", "--skip-after", "2.5",
            "--no-skip", "--skip-label", "Passer", "--font", "/usr/share/fonts/x.ttf", "--max-duration", "8",
            "--duration", "4", "--link", "https://example.com/a?b=c", "--open-links", "--no-pause-on-blur",
            "--transition", "zoom", "--fallback", "fb.png", "--wait", "1.5", "--control", "stdin", "--mute",
            "creative.mp4"
        ])
        XCTAssertEqual(o.file, "creative.mp4")
        XCTAssertEqual(o.eventsPath, "/tmp/ev.jsonl")
        XCTAssertEqual(o.size, Size(width: 540, height: 960))
        XCTAssertTrue(o.fullscreen)
        XCTAssertEqual(o.fit, .fill)
        XCTAssertEqual(o.layout, .logoBottom)
        XCTAssertEqual(o.logo, "logo.png")
        XCTAssertEqual(o.skipStyle, .ring)
        XCTAssertEqual(o.skipAfter, 2.5)
        XCTAssertFalse(o.showSkip)
        XCTAssertEqual(o.skipLabel, "Passer")
        XCTAssertEqual(o.font, "/usr/share/fonts/x.ttf")
        XCTAssertEqual(o.maxDuration, 8)
        XCTAssertEqual(o.imageDuration, 4)
        XCTAssertEqual(o.link, "https://example.com/a?b=c")
        XCTAssertTrue(o.openLinks)
        XCTAssertFalse(o.pauseOnBlur)
        XCTAssertEqual(o.transition, .zoom)
        XCTAssertEqual(o.fallback, "fb.png")
        XCTAssertEqual(o.wait, 1.5)
        XCTAssertTrue(o.controlStdin)
        XCTAssertTrue(o.muted)
    }

    func testDeviceEqualsFormAndFileAnywhere() throws {
        let o = try parse(["--device=iphone-8", "ad.png", "--transition=none", "--skip-label=跳过", "--link=http://x.example"])
        XCTAssertEqual(o.device, .iphone8)
        XCTAssertEqual(o.file, "ad.png")
        XCTAssertEqual(o.transition, Transition.none)
        XCTAssertEqual(o.skipLabel, "跳过")
        XCTAssertEqual(o.link, "http://x.example")
        for preset in DevicePreset.allCases {
            XCTAssertEqual(try parse(["a.mp4", "--device", preset.rawValue]).device, preset)
        }
    }

    func testDoubleDashEndsOptions() throws {
        XCTAssertEqual(try parse(["--mute", "--", "--odd name.mp4"]).file, "--odd name.mp4")
        XCTAssertTrue(try parse(["--mute", "--", "--odd name.mp4"]).muted)
        XCTAssertEqual(try parse(["-"]).file, "-", "a lone dash is a file name")
    }

    func testHelp() throws {
        XCTAssertNil(try PlayOptions.parse(["--help"]))
        XCTAssertNil(try PlayOptions.parse(["-h"]))
        XCTAssertNil(try PlayOptions.parse(["ad.mp4", "--help"]), "help wins over a complete command")
        for option in [
            "--size", "--device", "--fit", "--layout", "--logo", "--skip-style", "--skip-after", "--no-skip",
            "--skip-label", "--font", "--max-duration", "--duration", "--link", "--open-links",
            "--no-pause-on-blur", "--transition", "--fallback", "--wait", "--control", "--mute", "--events",
            "--fullscreen"
        ] {
            XCTAssertTrue(PlayOptions.help.contains(option), "help mentions \(option)")
        }
    }

    func testFileErrors() {
        XCTAssertEqual(usageError([]), "play needs a FILE")
        XCTAssertEqual(usageError(["--mute"]), "play needs a FILE")
        XCTAssertEqual(usageError(["a.mp4", "b.mp4"]), "play takes one FILE, got 2")
        XCTAssertEqual(usageError(["a.mp4", "--mute", "b.mp4", "c.mp4"]), "play takes one FILE, got 3")
    }

    func testSizeErrors() {
        for bad in ["0x0", "10x10", "63x1000", "720", "720x", "abc", "20000x100", "100x16385", "-720x1280", "720x1280x2", ""] {
            let message = usageError(["a.mp4", "--size", bad])
            XCTAssertTrue(message.hasPrefix("--size"), message)
            XCTAssertTrue(message.contains("'\(bad)'"), message)
        }
        XCTAssertEqual(try parse(["a.mp4", "--size", "64x64"]).size, Size(width: 64, height: 64))
        XCTAssertEqual(try parse(["a.mp4", "--size", "16384x16384"]).size, Size(width: 16384, height: 16384))
    }

    func testLinkErrors() {
        for bad in [
            "ftp://example.com/x", "file:///etc/passwd", "javascript:alert(1)", "mailto:a@b.c", "example.com",
            "//example.com", "http://", "https:///path", "http://exa mple.com", "http:example.com", "xhttp://a.b"
        ] {
            let message = usageError(["a.mp4", "--link", bad])
            XCTAssertTrue(message.hasPrefix("--link"), message)
            XCTAssertTrue(message.contains(bad), message)
        }
    }

    func testChoiceErrorsListTheChoices() {
        XCTAssertEqual(usageError(["a.mp4", "--skip-style", "bogus"]), "--skip-style takes one of text, ring, not 'bogus'")
        XCTAssertEqual(usageError(["a.mp4", "--fit", "stretch"]), "--fit takes one of fit, fill, not 'stretch'")
        XCTAssertEqual(usageError(["a.mp4", "--layout", "side"]), "--layout takes one of fullscreen, logo-bottom, not 'side'")
        XCTAssertEqual(usageError(["a.mp4", "--transition", "slide"]), "--transition takes one of fade, zoom, none, not 'slide'")
        XCTAssertTrue(usageError(["a.mp4", "--device", "nokia-3310"]).contains("iphone-se"))
        XCTAssertEqual(usageError(["a.mp4", "--skip-style", "TEXT"]), "--skip-style takes one of text, ring, not 'TEXT'")
    }

    func testNumberErrors() {
        let cases: [([String], String)] = [
            (["--wait", "-1"], "--wait takes a number from 0 to 600, not '-1'"),
            (["--wait", "abc"], "--wait takes a number from 0 to 600, not 'abc'"),
            (["--wait", "601"], "--wait takes a number from 0 to 600, not '601'"),
            (["--duration", "0"], "--duration takes a number from 0.1 to 3600, not '0'"),
            (["--max-duration", "0"], "--max-duration takes a number from 0.1 to 3600, not '0'"),
            (["--skip-after", "-1"], "--skip-after takes a number from 0 to 3600, not '-1'"),
            (["--skip-after", "nan"], "--skip-after takes a number from 0 to 3600, not 'nan'"),
            (["--duration", "inf"], "--duration takes a number from 0.1 to 3600, not 'inf'"),
            (["--duration", "5s"], "--duration takes a number from 0.1 to 3600, not '5s'")
        ]
        for (args, message) in cases {
            XCTAssertEqual(usageError(["a.mp4"] + args), message)
        }
        XCTAssertEqual(try parse(["a.mp4", "--wait", "0"]).wait, 0)
        XCTAssertEqual(try parse(["a.mp4", "--duration", "0.1"]).imageDuration, 0.1)
    }

    func testOtherValueErrors() {
        XCTAssertEqual(usageError(["a.mp4", "--skip-label", ""]), "--skip-label takes 1 to 24 characters")
        XCTAssertEqual(usageError(["a.mp4", "--skip-label", String(repeating: "x", count: 25)]), "--skip-label takes 1 to 24 characters")
        XCTAssertEqual(try parse(["a.mp4", "--skip-label", String(repeating: "跳", count: 24)]).skipLabel.count, 24)
        XCTAssertEqual(usageError(["a.mp4", "--control", "tcp"]), "--control takes 'stdin', not 'tcp'")
        XCTAssertEqual(usageError(["a.mp4", "--bogus"]), "unknown option --bogus (see launchad play --help)")
        XCTAssertEqual(usageError(["a.mp4", "--mute=yes"]), "--mute takes no value")
        XCTAssertEqual(usageError(["a.mp4", "--no-skip=1"]), "--no-skip takes no value")
    }

    func testMissingValues() {
        XCTAssertEqual(usageError(["a.mp4", "--events"]), "--events needs a value")
        XCTAssertEqual(usageError(["a.mp4", "--size"]), "--size needs a value")
        // The next option is not taken as the value: no events file named "--mute".
        XCTAssertEqual(usageError(["a.mp4", "--events", "--mute"]), "--events needs a value")
        XCTAssertEqual(usageError(["a.mp4", "--fallback", "--wait", "2"]), "--fallback needs a value")
        // A value that starts with dashes can still be given with '='.
        XCTAssertEqual(try parse(["a.mp4", "--events=--odd"]).eventsPath, "--odd")
        XCTAssertEqual(try parse(["a.mp4", "--skip-label", "--"]).skipLabel, "--")
    }

    func testCombinationErrors() {
        XCTAssertEqual(usageError(["a.mp4", "--layout", "logo-bottom"]), "--layout logo-bottom needs --logo IMAGE")
        XCTAssertEqual(usageError(["a.mp4", "--size", "720x1280", "--device", "ipad"]), "--size and --device cannot be used together")
        XCTAssertEqual(usageError(["a.mp4", "--open-links"]), "--open-links needs --link URL")
        XCTAssertNoThrow(try parse(["a.mp4", "--layout", "logo-bottom", "--logo", "l.png"]))
    }

    /// `launch` takes its link from the manifest: `--open-links` alone is accepted there.
    func testLaunchOpenLinksNeedsNoLink() throws {
        let o = try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json", "--open-links"]))
        XCTAssertTrue(o.play.openLinks)
        XCTAssertNil(o.play.link)
    }

    func testLaterOptionWins() throws {
        XCTAssertEqual(try parse(["a.mp4", "--fit", "fill", "--fit", "fit"]).fit, .fit)
        XCTAssertEqual(try parse(["a.mp4", "--wait", "1", "--wait", "2"]).wait, 2)
    }
}

final class LinkTests: XCTestCase {
    func testWebLinksOnly() {
        for good in [
            "http://example.com", "https://example.com/path?q=1#frag", "HTTPS://EXAMPLE.COM", "https://127.0.0.1:8080/",
            "http://[::1]/", "https://user@example.com/", "https://例子.测试/"
        ] {
            XCTAssertTrue(Link.isAllowed(good), good)
        }
        for bad in [
            "", "ftp://example.com", "file:///tmp/x", "javascript:alert(1)", "data:text/html,hi", "http://",
            "https://", "http:///x", "http://?q", "http://#f", "example.com", "http://exa mple.com",
            "http://example.com/\n", "http://example.com/\t", "xdg-open://x", "http:/example.com", " http://example.com"
        ] {
            XCTAssertFalse(Link.isAllowed(bad), bad.debugDescription)
        }
    }
}

final class CommandTests: XCTestCase {
    func testPlay() throws {
        let c = try Command.parse(["play", "ad.mp4", "--mute"])
        var expected = PlayOptions(file: "ad.mp4")
        expected.muted = true
        XCTAssertEqual(c, .play(expected, DeliveryOptions()))
    }

    func testHelpAndVersion() throws {
        XCTAssertEqual(try Command.parse(["--help"]), .help(Command.usage))
        XCTAssertEqual(try Command.parse(["-h"]), .help(Command.usage))
        XCTAssertEqual(try Command.parse(["help"]), .help(Command.usage))
        XCTAssertEqual(try Command.parse(["help", "play"]), .help(PlayOptions.help))
        for asked in ["--help", "-h", "help"] {
            XCTAssertEqual(try Command.parse(["help", asked]), .help(Command.usage), "help \(asked) is the help command's own help")
        }
        XCTAssertEqual(try Command.parse(["play", "--help"]), .help(PlayOptions.help))
        XCTAssertEqual(try Command.parse(["play", "-h"]), .help(PlayOptions.help))
        XCTAssertEqual(try Command.parse(["--version"]), .version)
        XCTAssertTrue(Command.usage.contains("play FILE"))
    }

    func testUsageErrors() {
        for args in [[], ["bogus"], ["help", "bogus"], ["play"], ["play", "a.mp4", "--size", "0x0"]] {
            XCTAssertThrowsError(try Command.parse(args), "\(args)") { error in
                guard let e = error as? UsageError else { return XCTFail("\(error) is not a usage error") }
                XCTAssertFalse(e.message.contains("\n"), e.message)
            }
        }
        XCTAssertThrowsError(try Command.parse(["bogus"])) { error in
            XCTAssertEqual((error as? UsageError)?.message, "unknown command 'bogus' (try: launchad --help)")
        }
        XCTAssertEqual(ExitCode.usage, 2)
    }
}

final class ArgumentReaderTests: XCTestCase {
    func testOptionsPositionalsAndRest() throws {
        var r = ArgumentReader(["a", "--x", "1", "b", "--y=2", "-h", "--then", "app", "--flag", "arg"])
        XCTAssertEqual(r.nextOption(), "--x")
        XCTAssertEqual(try r.value(for: "--x"), "1")
        XCTAssertEqual(r.nextOption(), "--y")
        XCTAssertEqual(try r.value(for: "--y"), "2")
        XCTAssertEqual(r.nextOption(), "--help")
        XCTAssertEqual(r.nextOption(), "--then")
        XCTAssertEqual(r.rest(), ["app", "--flag", "arg"])
        XCTAssertNil(r.nextOption())
        XCTAssertEqual(r.positionals, ["a", "b"])
    }

    func testNumbers() throws {
        var r = ArgumentReader(["--n", "7", "--n", "70", "--n", "x", "--d", "0.25"])
        _ = r.nextOption()
        XCTAssertEqual(try r.int(for: "--n", min: 1, max: 10), 7)
        _ = r.nextOption()
        XCTAssertThrowsError(try r.int(for: "--n", min: 1, max: 10)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "--n takes a whole number from 1 to 10, not '70'")
        }
        _ = r.nextOption()
        XCTAssertThrowsError(try r.int(for: "--n"))
        _ = r.nextOption()
        XCTAssertEqual(try r.double(for: "--d"), 0.25)
    }

    func testFlagWithValueIsRejectedButPlainFlagIsFine() throws {
        var r = ArgumentReader(["--a", "--b=1"])
        XCTAssertEqual(r.nextOption(), "--a")
        XCTAssertNoThrow(try r.flag("--a"))
        XCTAssertEqual(r.nextOption(), "--b")
        XCTAssertThrowsError(try r.flag("--b"))
    }
}

final class ControlCommandTests: XCTestCase {
    func testLines() {
        XCTAssertEqual(ControlCommand.parse("pause"), .pause)
        XCTAssertEqual(ControlCommand.parse("  RESUME \n"), .resume)
        XCTAssertEqual(ControlCommand.parse("end\r\n"), .end)
        for c in ControlCommand.allCases { XCTAssertEqual(ControlCommand.parse(c.rawValue), c) }
        XCTAssertNil(ControlCommand.parse(""))
        XCTAssertNil(ControlCommand.parse("   "))
        XCTAssertNil(ControlCommand.parse("stop"))
        XCTAssertNil(ControlCommand.parse("pause now"))
    }
}

final class SessionConfigTests: XCTestCase {
    func testImageUsesDuration() {
        let c = SessionConfig.image(options: options(["--duration", "2.5"], file: "a.png"))
        XCTAssertEqual(c.limitMs, 2500)
        XCTAssertEqual(c.countdownMs, 2500)
        XCTAssertEqual(SessionConfig.image(options: options([], file: "a.png")).limitMs, 5000)
    }

    func testVideoLastsItsLengthCappedByMaxDuration() {
        let capped = SessionConfig.video(durationMs: 8000, options: options(["--max-duration", "3"]))
        XCTAssertEqual(capped.limitMs, 3000)
        XCTAssertEqual(capped.countdownMs, 3000)
        let short = SessionConfig.video(durationMs: 5000, options: options(["--max-duration", "10"]))
        XCTAssertEqual(short.limitMs, 10_000)
        XCTAssertEqual(short.countdownMs, 5000)
        let uncapped = SessionConfig.video(durationMs: 5000, options: options())
        XCTAssertNil(uncapped.limitMs, "a video ends with its stream")
        XCTAssertEqual(uncapped.countdownMs, 5000)
        let unknown = SessionConfig.video(durationMs: nil, options: options(["--duration", "2.01"]))
        XCTAssertNil(unknown.limitMs)
        XCTAssertEqual(unknown.countdownMs, 2010, "2.01 * 1000 is 2009.999...: rounded, not truncated")
        XCTAssertEqual(SessionConfig.video(durationMs: nil, options: options(["--max-duration", "0.3"])).countdownMs, 300)
    }

    func testPresentationOptionsCarryOver() {
        let c = SessionConfig.video(
            durationMs: 5000,
            options: options([
                "--skip-after", "1.5", "--no-skip", "--skip-label", "Passer", "--skip-style", "ring",
                "--link", "https://e.example", "--open-links", "--no-pause-on-blur", "--transition", "zoom",
                "--fallback", "f.png", "--wait", "0.25", "--mute"
            ]))
        XCTAssertEqual(c.skipAfterMs, 1500)
        XCTAssertFalse(c.showSkip)
        XCTAssertEqual(c.skipLabel, "Passer")
        XCTAssertEqual(c.skipStyle, .ring)
        XCTAssertEqual(c.link, "https://e.example")
        XCTAssertTrue(c.openLinks)
        XCTAssertFalse(c.pauseOnBlur)
        XCTAssertEqual(c.transition, .zoom)
        XCTAssertTrue(c.hasFallback)
        XCTAssertEqual(c.waitMs, 250)
        XCTAssertTrue(c.muted)
        XCTAssertEqual(c.fadeInMs, 300)
        let d = SessionConfig.image(options: options([], file: "a.png"))
        XCTAssertEqual(d.skipLabel, "Skip")
        XCTAssertFalse(d.hasFallback)
        XCTAssertEqual(d.waitMs, 3000)
        XCTAssertTrue(d.pauseOnBlur)
        XCTAssertEqual(d.transition, .fade)
    }

    func testTransitionLengths() {
        XCTAssertEqual(Transition.fade.leaveMs, 400)
        XCTAssertEqual(Transition.zoom.leaveMs, 400)
        XCTAssertEqual(Transition.none.leaveMs, 0)
    }
}

/// Issue 42: a 16 MB argument value was echoed whole in its usage error. What any usage error
/// quotes of the user's values is cut to `UsageError.maxLength` with an ellipsis.
final class LongArgumentTests: XCTestCase {
    /// 1 MiB in the parsers (each escapes what it quotes, slow in a debug build); 16 MiB below.
    static let huge = String(repeating: "A", count: 1 << 20)

    func testAUsageErrorQuotesAtMostItsBoundOfAValue() throws {
        let cases: [[String]] = [
            ["play", "x.mp4", "--report", Self.huge], ["play", "x.mp4", "--report-format", Self.huge],
            ["play", "x.mp4", "--rotate", Self.huge], ["play", "x.mp4", "--duration", Self.huge],
            ["play", "x.mp4", "--max-skip-count=" + Self.huge], ["play", "x.mp4", "--" + Self.huge],
            ["fleet", "report", "--clickhouse", Self.huge], ["fleet", "report", "--since", Self.huge], ["fleet", Self.huge],
            ["fleet", "schema", "--table", Self.huge], ["outbox", Self.huge]
        ]
        for args in cases {
            XCTAssertThrowsError(try Command.parse(args), "\(args.map { $0.prefix(40) })") { error in
                let line = "\(error)"
                XCTAssertLessThanOrEqual(line.unicodeScalars.count, UsageError.maxLength, String(line.prefix(80)))
                XCTAssertTrue(line.count < 100 || line.contains("A…A"), String(line.prefix(80)))
            }
        }
        let cut = UsageError("--x takes a number, not '\(String(repeating: "A", count: 16 << 20))'")
        XCTAssertTrue(cut.message.hasPrefix("--x takes a number, not 'AAAA"), cut.message)
        XCTAssertTrue(cut.message.hasSuffix("AAAA'"), cut.message)
        XCTAssertEqual(cut.message.unicodeScalars.count, UsageError.maxLength)
        XCTAssertEqual(UsageError(String(repeating: "b", count: 500)).message.count, 500, "at the bound: whole")
    }

    /// Through the binary (an argument is at most 128 KiB on Linux): one line of at most the bound.
    func testTheLineOnStderrIsBounded() throws {
        let run = try Launchad.run(["fleet", "schema", "--table", String(repeating: "x", count: 120_000)])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
        XCTAssertLessThanOrEqual(
            run.stderr.unicodeScalars.count, "launchad: \n".count + UsageError.maxLength, String(run.stderr.prefix(200)))
        XCTAssertTrue(run.stderr.contains("x…x"), String(run.stderr.prefix(200)))
    }
}
