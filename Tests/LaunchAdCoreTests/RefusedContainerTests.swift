import Foundation
import LaunchAdCore
import XCTest

/// A file that is not media is named for what it is, not for the FFmpeg demuxer that claimed it.
final class RefusedContainerTests: XCTestCase {
    func line(_ format: String, _ head: String) -> String {
        RefusedContainer.describe(path: "f", format: format, head: Data(head.utf8))
    }

    func testAManifestIsCalledAManifestNotTedCaptions() {
        let said = line("tedcaptions", "\u{FEFF}\n  {\n \"ads\": [")
        XCTAssertEqual(said, "f is a launchad manifest (JSON), not media: it goes to launch, prefetch or schedule --manifest")
        XCTAssertEqual(line("tedcaptions", #"{"captions": []}"#), "f is JSON, not media")
    }

    func testPlaylistsCaptionsAndVASTAreNamed() {
        XCTAssertEqual(line("hls", "#EXTM3U\n"), "f is an HLS playlist, not one self-contained media file")
        XCTAssertEqual(line("dash", ""), "f is a DASH manifest, not one self-contained media file")
        XCTAssertEqual(line("webvtt", "WEBVTT\n"), "f is a caption file (webvtt), not media: captions go to play --captions")
        XCTAssertEqual(
            line("xml", "<?xml version=\"1.0\"?><VAST version=\"4.2\">"),
            "f is a VAST document, not media: play --vast or validate --vast take it")
        XCTAssertEqual(line("concat", "ffconcat version 1.0"), "f is an FFmpeg concat list, not media")
        XCTAssertEqual(line("lavfi", ""), "f is lavfi, not a media file launchad opens (playlists and manifests are refused)")
    }
}
