import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// A manifest ad's `tracking`, fired by `launch` through the outbox, against nginx's /track/.
final class ManifestTrackingFlowTests: ServerStateTestCase {
    func launch(_ extra: [String] = []) throws -> Launchad.Run {
        try Launchad.run(
            [
                "launch", "--manifest", server.manifestURL, "--cache", cache.path, "--state", state.path,
                "--size", "320x240", "--transition", "none", "--retries", "0", "--beacon-wait", "5"
            ] + extra)
    }

    func tracking(_ events: [String]) -> String {
        let base = server.nginx.base
        let pairs = events.map { #""\#($0)": ["\#(base)/track/\#($0)?ts=[TIMESTAMP]&cb=[CACHEBUSTING]&size=[PLAYERSIZE]"]"# }
        return #""tracking": {\#(pairs.joined(separator: ", "))},"#
    }

    func testLaunchFiresTheManifestsTrackingOnceInOrderWithMacros() throws {
        let events = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "skip", "click"]
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red"), extra: tracking(events))])
        XCTAssertEqual(
            try Launchad.run([
                "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
                "--state", state.path
            ]).status, 0)
        let run = try launch()
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.events.last?["outcome"] as? String, "completed")
        let got = server.nginx.tracked
        XCTAssertEqual(
            got.map { String($0.split(separator: "?")[0].dropFirst("/track/".count)) },
            ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"],
            "each once, in order; no skip or click in a completed play")
        for uri in got {
            XCTAssertTrue(
                uri.range(of: #"ts=20\d\d-\d\d-\d\dT\d\d%3A\d\d%3A\d\d\.\d\d\dZ&cb=\d{8}&size=320%2C240$"#, options: .regularExpression)
                    != nil, uri)
        }
        let status = try Launchad.run(["outbox", "status", "--state", state.path])
        XCTAssertTrue(status.stdout.contains(#""beacons":{"delivered":6,"#), status.stdout)
    }

    func testAnOfflineLaunchQueuesTheBeaconsAndTheNextOneSendsThem() throws {
        try server.publish([AdServer.Ad(id: "red", file: "red.png", data: try Fixtures.solidPNG("red"), extra: tracking(["impression"]))])
        XCTAssertEqual(
            try Launchad.run([
                "prefetch", "--manifest", server.manifestURL, "--cache", cache.path, "--size", "320x240",
                "--state", state.path
            ]).status, 0)
        server.nginx.stop()
        let offline = try launch(["--beacon-wait", "1", "--refresh-timeout", "1"])
        XCTAssertEqual(offline.events.last?["outcome"] as? String, "completed", offline.stdout)
        let queued = try Launchad.run(["outbox", "status", "--state", state.path])
        XCTAssertTrue(queued.stdout.contains(#""pending_beacons":1"#), queued.stdout)

        try server.nginx.start()
        XCTAssertEqual(try launch().status, 0)
        let got = server.nginx.tracked.map { String($0.split(separator: "?")[0]) }
        XCTAssertEqual(got, ["/track/impression", "/track/impression"], "the offline play's impression, then the second play's")
    }
}
