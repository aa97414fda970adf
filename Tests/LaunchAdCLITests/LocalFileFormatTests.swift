import Foundation
import LaunchAdTestSupport
import XCTest

/// A local or cached file is opened by launchad alone (the demuxer opens no second file) and
/// must be a self-contained container: a playlist or manifest posing as a video is refused.
final class LocalFileFormatTests: XCTestCase {
    var folder: URL!
    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-local-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    /// An HLS playlist and a DASH manifest named `ad.mp4`, each naming a real local video:
    /// neither plays, the video they name is never opened, and the run ends once with not_media.
    func testPlaylistsAndManifestsPosingAsVideosAreRefused() throws {
        let clip = try Fixtures.colourBars(seconds: 1, audio: false)
        let segment = folder.appendingPathComponent("secret.mp4").path
        try FileManager.default.copyItem(atPath: clip, toPath: segment)
        let hls = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nfile://\(segment)\n#EXT-X-ENDLIST\n"
        let mpd = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT1S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
              <Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="100000" width="320" height="240" codecs="avc1.64000d">
                <BaseURL>file://\(segment)</BaseURL>
              </Representation></AdaptationSet></Period>
            </MPD>
            """
        for (name, text) in [("hls", hls), ("dash", mpd)] {
            let ad = folder.appendingPathComponent("\(name)-ad.mp4")
            try Data(text.utf8).write(to: ad)
            let run = try Launchad.run(["play", ad.path, "--transition", "none"])
            XCTAssertEqual(run.status, 3, "\(name): \(run.stdout)")
            XCTAssertTrue(run.events(named: "first_frame").isEmpty, "\(name): \(run.stdout)")
            XCTAssertEqual(run.events(named: "end").count, 1)
            XCTAssertEqual(run.events(named: "error").first?["code"] as? String, "not_media", "\(name): \(run.stdout)")
            let message = run.events(named: "error").first?["message"] as? String ?? ""
            XCTAssertTrue(
                message.contains("not one self-contained media file") || message.contains("not a media file FFmpeg can read"), message)

            let validate = try Launchad.run(["validate", ad.path])
            XCTAssertNotEqual(validate.status, 0, "\(name): \(validate.stdout)")
            XCTAssertFalse(validate.stdout.contains("\"width\":320"), "the named video was not analysed: \(validate.stdout)")
        }
    }

    /// What plays today still plays from a local file: MP4, WebM, MPEG-TS, PNG, JPEG, GIF.
    func testSelfContainedFilesStillPlay() throws {
        let inputs: [(String, [String])] = [
            ("fmt.webm", ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=10:d=1", "-c:v", "libvpx-vp9", "-b:v", "200k"]),
            ("fmt.ts", ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=10:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", "mpegts"]),
            ("fmt.png", ["-f", "lavfi", "-i", "color=c=red:s=160x120", "-frames:v", "1"]),
            ("fmt.jpg", ["-f", "lavfi", "-i", "color=c=red:s=160x120", "-frames:v", "1"]),
            ("fmt.gif", ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=10:d=1"])
        ]
        var files = [try Fixtures.colourBars(seconds: 1, audio: true)]
        for (name, args) in inputs { files.append(try Fixtures.make(name, args)) }
        for file in files {
            let run = try Launchad.run(["play", file, "--duration", "1", "--transition", "none"])
            XCTAssertEqual(run.status, 0, "\(file): \(run.stdout)")
            XCTAssertEqual(run.events(named: "first_frame").count, 1, file)
        }
    }
}
