import Foundation
import LaunchAdCore
import LaunchAdTestSupport
import XCTest

@testable import LaunchAdMedia

/// `launchad probe`'s facts against ffprobe's on the same files.
final class ProbeTests: XCTestCase {
    /// ffprobe's streams and format for `path`.
    private func ffprobe(_ path: String, _ extra: [String] = []) throws -> [String: Any] {
        let r = try Fixtures.run("/usr/bin/ffprobe", ["-v", "error", "-of", "json", "-show_streams", "-show_format"] + extra + [path])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    private func ratio(_ s: Any?) -> Double? {
        guard let parts = (s as? String)?.split(separator: "/"), parts.count == 2,
            let n = Double(parts[0]), let d = Double(parts[1]), d != 0
        else { return nil }
        return n / d
    }

    func testFactsMatchFFprobe() throws {
        let clip = try Fixtures.make(
            "probe-av.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=3", "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=44100:d=3",
                "-c:v", "libx264", "-profile:v", "main", "-pix_fmt", "yuv420p", "-color_range", "tv", "-colorspace", "bt709",
                "-c:a", "aac", "-ac", "2", "-b:a", "96k", "-movflags", "+faststart"
            ])
        let facts = try MediaProbe.probe(clip)
        let ff = try ffprobe(clip)
        let format = try XCTUnwrap(ff["format"] as? [String: Any])
        let streams = try XCTUnwrap(ff["streams"] as? [[String: Any]])
        XCTAssertEqual(facts.container, "mp4")
        XCTAssertEqual(facts.formatName, format["format_name"] as? String)
        XCTAssertEqual(facts.durationSeconds ?? 0, Double(format["duration"] as? String ?? "") ?? -1, accuracy: 0.001)
        XCTAssertEqual(facts.fileSize, Int(format["size"] as? String ?? ""))
        XCTAssertEqual(facts.bitRate, Int(format["bit_rate"] as? String ?? ""))
        XCTAssertEqual(facts.faststart, true)
        XCTAssertEqual(facts.streams.count, streams.count)

        let v = try XCTUnwrap(facts.video), fv = streams[v.index]
        XCTAssertEqual(v.codec, fv["codec_name"] as? String)
        XCTAssertEqual(v.profile, fv["profile"] as? String)
        XCTAssertEqual(v.profile, "Main")
        XCTAssertEqual(v.level, fv["level"] as? Int)
        XCTAssertEqual(v.width, fv["width"] as? Int)
        XCTAssertEqual(v.height, fv["height"] as? Int)
        XCTAssertEqual(v.displayAspect, fv["display_aspect_ratio"] as? String)
        XCTAssertEqual(v.pixelFormat, fv["pix_fmt"] as? String)
        XCTAssertEqual(v.colorRange, fv["color_range"] as? String)
        XCTAssertEqual(v.colorSpace, fv["color_space"] as? String)
        XCTAssertEqual(v.colorSpace, "bt709")
        XCTAssertEqual(v.fieldOrder, fv["field_order"] as? String)
        XCTAssertEqual(v.frameRate ?? 0, ratio(fv["avg_frame_rate"]) ?? -1, accuracy: 0.001)
        XCTAssertEqual(v.bitRate, Int(fv["bit_rate"] as? String ?? ""))
        XCTAssertEqual(v.variableFrameRate, false)

        let a = try XCTUnwrap(facts.audio), fa = streams[a.index]
        XCTAssertEqual(a.codec, fa["codec_name"] as? String)
        XCTAssertEqual(a.profile, fa["profile"] as? String)
        XCTAssertEqual(a.sampleRate, Int(fa["sample_rate"] as? String ?? ""))
        XCTAssertEqual(a.sampleRate, 44_100)
        XCTAssertEqual(a.channels, fa["channels"] as? Int)
        XCTAssertEqual(a.channelLayout, fa["channel_layout"] as? String)
        XCTAssertEqual(a.bitRate, Int(fa["bit_rate"] as? String ?? ""))
    }

    func testKeyframeIntervalMatchesFFprobesPacketFlags() throws {
        let clip = try Fixtures.make(
            "probe-gop.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=3", "-c:v", "libx264", "-g", "12", "-keyint_min", "12",
                "-sc_threshold", "0", "-pix_fmt", "yuv420p"
            ])
        let v = try XCTUnwrap(MediaProbe.probe(clip).video)
        let r = try Fixtures.run(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time,flags",
                "-of", "csv=p=0", clip
            ])
        let keys = r.stdout.split(separator: "\n").compactMap { line -> Double? in
            let f = line.split(separator: ",")
            return f.count == 2 && f[1].hasPrefix("K") ? Double(f[0]) : nil
        }.sorted()
        XCTAssertEqual(v.keyframeCount, keys.count)
        let gaps = zip(keys.dropFirst(), keys).map { $0 - $1 }
        XCTAssertEqual(v.keyframeIntervalMax ?? 0, gaps.max() ?? -1, accuracy: 0.001)
        XCTAssertEqual(v.keyframeIntervalMax ?? 0, 0.48, accuracy: 0.001)
    }

    func testFaststartIsMoovBeforeMdat() throws {
        let args = ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p"]
        XCTAssertEqual(try MediaProbe.probe(Fixtures.make("probe-fast.mp4", args + ["-movflags", "+faststart"])).faststart, true)
        XCTAssertEqual(try MediaProbe.probe(Fixtures.make("probe-slow.mp4", args)).faststart, false)
        let mkv = try Fixtures.make("probe.mkv", args)
        XCTAssertNil(try MediaProbe.probe(mkv).faststart)
        XCTAssertEqual(try MediaProbe.probe(mkv).container, "matroska")
    }

    func testVariableFrameRateIsDetected() throws {
        // 25 pictures a second for one second, then 10 a second.
        let vfr = try Fixtures.make(
            "probe-vfr.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=2",
                "-vf", "setpts='if(lt(N,25),N/25,1+(N-25)/10)/TB'", "-fps_mode", "vfr", "-c:v", "libx264", "-pix_fmt", "yuv420p"
            ])
        XCTAssertEqual(try MediaProbe.probe(vfr).video?.variableFrameRate, true)
    }

    func testRotationAndSampleAspectGiveTheDisplayedSize() throws {
        let upright = try Fixtures.make(
            "probe-upright.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p"
            ])
        // Only a stream copy keeps the rotate tag (as a display matrix) in FFmpeg 5.1.
        let rotated = try Fixtures.make("probe-rot.mp4", ["-i", upright, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let v = try XCTUnwrap(MediaProbe.probe(rotated).video)
        let side = try ffprobe(rotated)["streams"] as? [[String: Any]]
        let ccw = ((side?.first?["side_data_list"] as? [[String: Any]])?.first?["rotation"] as? Int) ?? 0
        // ffprobe prints the matrix's counter-clockwise angle; a player turns the picture back by it.
        XCTAssertNotEqual(ccw, 0)
        XCTAssertEqual(v.rotation, (360 - ccw) % 360)
        XCTAssertEqual([v.displayWidth, v.displayHeight], [180, 320])
        XCTAssertEqual(v.displayAspect, "9:16")

        let anamorphic = try Fixtures.make(
            "probe-sar.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=480x360:r=25:d=1", "-vf", "setsar=4/3", "-c:v", "libx264", "-pix_fmt", "yuv420p"
            ])
        let a = try XCTUnwrap(MediaProbe.probe(anamorphic).video)
        XCTAssertEqual([a.displayWidth, a.displayHeight], [640, 360])
        let fa = (try ffprobe(anamorphic)["streams"] as? [[String: Any]])?.first
        XCTAssertEqual(a.displayAspect, fa?["display_aspect_ratio"] as? String)
    }

    func testFilesThatAreNotMediaGiveAReason() throws {
        let cases: [(String, Data, String)] = [
            ("probe-empty.mp4", Data(), "is empty"),
            ("probe-text.mp4", Data("just some notes\n".utf8), "Invalid data")
        ]
        for (name, data, reason) in cases {
            let path = try Fixtures.write(name, data)
            XCTAssertThrowsError(try MediaProbe.probe(path)) { e in
                XCTAssertTrue((e as? MediaError)?.message.contains(reason) == true, "\(name): \(e)")
            }
        }
        XCTAssertThrowsError(try MediaProbe.probe("/nonexistent/ad.mp4")) { e in
            XCTAssertEqual((e as? MediaError)?.code, .fileNotFound)
        }
    }

    func testTopLevelBoxesWithLargeSizesAndABoxToTheEnd() throws {
        func box(_ type: String, _ payload: Int, large: Bool = false, toEnd: Bool = false) -> Data {
            var d = Data()
            func be(_ v: UInt64, _ n: Int) { for i in (0..<n).reversed() { d.append(UInt8((v >> (8 * UInt64(i))) & 0xff)) } }
            be(toEnd ? 0 : (large ? 1 : UInt64(8 + payload)), 4)
            d.append(contentsOf: Array(type.utf8))
            if large { be(UInt64(16 + payload), 8) }
            d.append(Data(count: payload))
            return d
        }
        let fast = try Fixtures.write("boxes-fast.mp4", box("ftyp", 16) + box("moov", 40) + box("mdat", 300, large: true))
        XCTAssertEqual(TopLevelBoxes.types(path: fast), ["ftyp", "moov", "mdat"])
        XCTAssertTrue(TopLevelBoxes.faststart(path: fast))
        let slow = try Fixtures.write(
            "boxes-slow.mp4", box("ftyp", 16) + box("free", 8) + box("mdat", 300, large: true) + box("moov", 40, toEnd: true))
        XCTAssertEqual(TopLevelBoxes.types(path: slow), ["ftyp", "free", "mdat", "moov"])
        XCTAssertFalse(TopLevelBoxes.faststart(path: slow))
        // Cut inside mdat: moov is never reached.
        let cut = try Fixtures.write("boxes-cut.mp4", (box("ftyp", 16) + box("mdat", 300)).prefix(100))
        XCTAssertFalse(TopLevelBoxes.faststart(path: cut))
        let garbage = try Fixtures.write("boxes-garbage.mp4", Data([0, 0, 0, 3, 0xff, 0xfe, 0, 1]))
        XCTAssertEqual(TopLevelBoxes.types(path: garbage), [])
    }

    func testInterlacedVideoIsReportedAsSuch() throws {
        let clip = try Fixtures.make(
            "probe-interlaced.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=1", "-c:v", "libx264", "-flags", "+ildct+ilme",
                "-x264-params", "tff=1", "-pix_fmt", "yuv420p"
            ])
        let v = try XCTUnwrap(MediaProbe.probe(clip).video)
        let ff = try ffprobe(clip)["streams"] as? [[String: Any]]
        XCTAssertEqual(v.fieldOrder, ff?.first?["field_order"] as? String)
        XCTAssertNotEqual(v.fieldOrder, "progressive")
        let facts = CreativeFacts(probe: try MediaProbe.probe(clip), analysis: AnalysisFacts())
        XCTAssertEqual(RuleName.scan.measure(facts), .value(.string("interlaced")))
    }
}
