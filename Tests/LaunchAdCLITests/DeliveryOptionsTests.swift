import LaunchAdCore
import XCTest

@testable import LaunchAdCLI
@testable import LaunchAdEngine

final class DeliveryOptionsTests: XCTestCase {
    func testDefaultsAndTheSharedOptions() throws {
        let d = DeliveryOptions()
        XCTAssertEqual(d.beaconTTL, 86_400)
        XCTAssertEqual(d.beaconWait, 2)
        XCTAssertNil(d.stateDirectory)

        guard case .play(_, let play)? = try? Command.parse(["play", "ad.mp4", "--state", "/s", "--beacon-ttl", "60", "--beacon-wait=0.5"])
        else {
            return XCTFail("play with delivery options")
        }
        XCTAssertEqual(play.stateDirectory, "/s")
        XCTAssertEqual(play.beaconTTL, 60)
        XCTAssertEqual(play.beaconWait, 0.5)

        let launch = try XCTUnwrap(LaunchOptions.parse(["--manifest", "m.json", "--state", "/s", "--allow-http", "--beacon-wait", "0"]))
        XCTAssertEqual(launch.cache.delivery.stateDirectory, "/s")
        XCTAssertEqual(launch.cache.delivery.beaconWait, 0)
        XCTAssertTrue(launch.cache.delivery.allowHTTP)
        let prefetch = try XCTUnwrap(PrefetchOptions.parse(["--manifest", "m.json", "--beacon-ttl", "3600"]))
        XCTAssertEqual(prefetch.delivery.beaconTTL, 3600)

        guard case .outbox(let o)? = try? Command.parse(["outbox", "flush", "--state", "/s"]) else { return XCTFail("outbox flush") }
        XCTAssertEqual(o.action, .flush)
        XCTAssertEqual(o.delivery.stateDirectory, "/s")
        XCTAssertEqual(try Command.parse(["outbox", "--help"]), .help(OutboxOptions.help))
    }

    func testRecordOptions() throws {
        guard
            case .play(_, let d)? = try? Command.parse([
                "play", "a.mp4", "--report", "http://pop.example.com/x", "--allow-http",
                "--report-batch", "7", "--screen-id", "lobby 7"
            ])
        else {
            return XCTFail("play with record options")
        }
        XCTAssertEqual(d.report, "http://pop.example.com/x")
        XCTAssertEqual(d.reportBatch, 7)
        XCTAssertEqual(d.screenID, "lobby 7")
        XCTAssertNoThrow(try Command.parse(["play", "a.mp4", "--report", "http://127.0.0.1:9/pop"]))
    }

    func testDefaultStateFolder() {
        let d = DeliveryOptions()
        XCTAssertEqual(d.stateURL(environment: ["XDG_STATE_HOME": "/xdg", "HOME": "/home/k"]).path, "/xdg/launchad")
        XCTAssertEqual(d.stateURL(environment: ["XDG_STATE_HOME": "rel", "HOME": "/home/k"]).path, "/home/k/.local/state/launchad")
        XCTAssertEqual(d.stateURL(environment: ["HOME": "/home/k"]).path, "/home/k/.local/state/launchad")
    }

    func testUsageErrors() {
        let cases: [([String], String)] = [
            (["outbox"], "outbox takes status or flush"),
            (["outbox", "send"], "outbox takes status or flush, not 'send'"),
            (["outbox", "status", "--mute"], "unknown option --mute (see launchad outbox --help)"),
            (["outbox", "status", "--state", ""], "--state needs a folder"),
            (["play", "a.mp4", "--beacon-ttl", "0"], "--beacon-ttl takes a number from 1 to 2592000, not '0'"),
            (["play", "a.mp4", "--beacon-wait", "-1"], "--beacon-wait takes a number from 0 to 600, not '-1'"),
            (["prefetch", "--manifest", "m.json", "--state"], "--state needs a value"),
            (
                ["play", "a.mp4", "--report", "ftp://pop.example.com/x"],
                "--report takes an http or https URL, not 'ftp://pop.example.com/x'"
            ),
            (
                ["play", "a.mp4", "--report", "http://pop.example.com/x"],
                "--report over plain http needs --allow-http (or https, or a loopback host)"
            ),
            (
                ["launch", "--manifest", "m.json", "--report", "http://pop.example.com/x"],
                "--report over plain http needs --allow-http (or https, or a loopback host)"
            ),
            (["play", "a.mp4", "--report-batch", "0"], "--report-batch takes a whole number from 1 to 1000, not '0'"),
            (["play", "a.mp4", "--screen-id", ""], "--screen-id takes 1 to 100 characters on one line"),
            (
                ["prefetch", "--manifest", "m.json", "--report", "https://pop.example.com/x"],
                "unknown option --report (see launchad prefetch --help)"
            )
        ]
        for (args, message) in cases {
            XCTAssertThrowsError(try Command.parse(args), args.joined(separator: " ")) {
                XCTAssertEqual($0 as? UsageError, UsageError(message))
            }
        }
    }

    /// `--allow-private-network` is taken by every command that fetches what a document names,
    /// and is off unless given; `--allow-http` does not imply it.
    func testAllowPrivateNetworkIsItsOwnOption() throws {
        for args in [
            ["play", "ad.mp4"], ["launch", "--manifest", "m.json"], ["prefetch", "--manifest", "m.json"],
            ["outbox", "flush"], ["validate", "--vast", "tag.xml"]
        ] {
            XCTAssertFalse(try Command.parse(args + ["--allow-http"]).allowsPrivateNetwork, "\(args)")
            XCTAssertTrue(try Command.parse(args + ["--allow-private-network"]).allowsPrivateNetwork, "\(args)")
        }
        XCTAssertFalse(try Command.parse(["probe", "ad.mp4"]).allowsPrivateNetwork)
    }
}
