import Foundation
import LaunchAdTestSupport
import XCTest

final class ProbeCLITests: XCTestCase {
    func testProbePrintsJSONFacts() throws {
        let clip = try Fixtures.colourBars(seconds: 2)
        let r = try Launchad.run(["probe", clip])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["container"] as? String, "mp4")
        XCTAssertEqual(json["faststart"] as? Bool, true)
        XCTAssertEqual(json["duration"] as? Double ?? 0, 2, accuracy: 0.05)
        let streams = try XCTUnwrap(json["streams"] as? [[String: Any]])
        let video = try XCTUnwrap(streams.first { $0["type"] as? String == "video" })
        XCTAssertEqual(video["width"] as? Int, 320)
        XCTAssertEqual(video["keyframe_interval_max"] as? Double ?? 0, 1, accuracy: 0.001)
        let audio = try XCTUnwrap(streams.first { $0["type"] as? String == "audio" })
        XCTAssertEqual(audio["sample_rate"] as? Int, 48_000)
    }

    func testProbeOfSomethingThatIsNotMediaExitsOne() throws {
        let text = try Fixtures.write("probe-notes.txt", Data("meeting notes\n".utf8))
        let r = try Launchad.run(["probe", text])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "launchad: \(text) is not a media file FFmpeg can read: Invalid data found when processing input\n")
        // FFmpeg takes a manifest for TED captions: it is called a manifest.
        let manifest = Fixtures.repoRoot.appendingPathComponent("Media/manifest.json").path
        let m = try Launchad.run(["probe", manifest])
        XCTAssertEqual(m.status, 1)
        XCTAssertEqual(
            m.stderr, "launchad: \(manifest) is a launchad manifest (JSON), not media: it goes to launch, prefetch or schedule --manifest\n"
        )
        let usage = try Launchad.run(["probe"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(usage.stderr, "launchad: probe needs a FILE\n")
    }
}
