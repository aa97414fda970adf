import Foundation
import LaunchAdMedia
import LaunchAdTestSupport
import XCTest

/// The demuxer and decoders against ffprobe's own figures for the same files.
final class DecodeTests: XCTestCase {
    /// Decodes every packet of the best video and audio streams: picture count, their timestamps,
    /// and the audio sample count.
    func decodeAll(_ path: String) throws -> (pictures: Int, pts: [Double], samples: Int) {
        let d = try Demuxer(path: path)
        let v = try XCTUnwrap(d.bestVideoStream)
        let a = d.bestAudioStream
        let vdec = try d.makeDecoder(stream: v)
        let adec = try a.map { try d.makeDecoder(stream: $0) }
        let vInfo = d.stream(v)
        var pts: [Double] = [], samples = 0
        let packet = Packet(), frame = Frame()
        func drain(_ dec: Decoder, video: Bool) throws {
            while try dec.receive(into: frame) == .frame {
                if video { pts.append(frame.bestEffortPTS.map(vInfo.seconds) ?? -1) } else { samples += frame.sampleCount }
                frame.unref()
            }
        }
        while try d.read(into: packet) {
            if packet.streamIndex == v {
                _ = try vdec.send(packet); try drain(vdec, video: true)
            } else if packet.streamIndex == a, let adec {
                _ = try adec.send(packet); try drain(adec, video: false)
            }
            packet.unref()
        }
        _ = try vdec.send(nil); try drain(vdec, video: true)
        if let adec { _ = try adec.send(nil); try drain(adec, video: false) }
        return (pts.count, pts, samples)
    }

    func ffprobe(_ args: [String]) throws -> String {
        try Fixtures.run("/usr/bin/ffprobe", ["-v", "error"] + args).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testSampleAdMatchesFFprobe() throws {
        let path = Fixtures.media("sample-ad.mp4")
        let got = try decodeAll(path)
        let frames = try ffprobe([
            "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path
        ])
        XCTAssertEqual(got.pictures, Int(frames))
        XCTAssertEqual(got.pts, got.pts.sorted(), "pictures come out in presentation order")
        let perFrame = try ffprobe(["-select_streams", "a:0", "-show_entries", "frame=nb_samples", "-of", "csv=p=0", path])
        let expected = perFrame.split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
        XCTAssertEqual(got.samples, expected)
    }

    func testBFramesMatchFFprobe() throws {
        let path = try Fixtures.make(
            "bframes.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=2", "-f", "lavfi", "-i", "sine=d=2:sample_rate=44100",
                "-c:v", "libx264", "-bf", "3", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "1"
            ])
        let got = try decodeAll(path)
        XCTAssertEqual(
            got.pictures,
            Int(try ffprobe(["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])))
        XCTAssertEqual(got.pts, got.pts.sorted())
    }

    /// Packets sent before the first picture comes out, and every picture's time, in order.
    func firstPictureDelay(_ path: String, threads: Int, slicesOnly: Bool) throws -> (packets: Int, pts: [Double], frameThreads: Bool) {
        let d = try Demuxer(path: path)
        let v = try XCTUnwrap(d.bestVideoStream)
        let dec = try d.makeDecoder(stream: v, threads: threads, slicesOnly: slicesOnly)
        let info = d.stream(v)
        let packet = Packet(), frame = Frame()
        var sent = 0, firstAt: Int?, pts: [Double] = []
        func drain() throws {
            while try dec.receive(into: frame) == .frame {
                if firstAt == nil { firstAt = sent }
                pts.append(frame.bestEffortPTS.map(info.seconds) ?? -1)
                frame.unref()
            }
        }
        while try d.read(into: packet) {
            if packet.streamIndex == v { _ = try dec.send(packet); sent += 1; try drain() }
            packet.unref()
        }
        _ = try dec.send(nil); try drain()
        return (try XCTUnwrap(firstAt), pts, dec.usesFrameThreads)
    }

    /// The player's slice-threaded decoder gives its first picture after H.264's reorder delay
    /// alone; frame threads add one picture per thread.
    func testSliceThreadsGiveTheFirstPictureSooner() throws {
        let path = try Fixtures.make(
            "bframes-first.mp4",
            ["-f", "lavfi", "-i", "testsrc2=s=640x360:r=30:d=1", "-c:v", "libx264", "-bf", "3", "-pix_fmt", "yuv420p"])
        let slices = try firstPictureDelay(path, threads: 4, slicesOnly: true)
        let frames = try firstPictureDelay(path, threads: 4, slicesOnly: false)
        XCTAssertFalse(slices.frameThreads)
        XCTAssertTrue(frames.frameThreads)
        XCTAssertLessThanOrEqual(slices.packets, 3, "x264's reorder delay with three B-frames is two pictures")
        XCTAssertGreaterThanOrEqual(frames.packets, slices.packets + 3, "four frame threads wait for three more packets")
        XCTAssertEqual(slices.pts, frames.pts, "the same pictures in the same order")
        XCTAssertEqual(slices.pts, slices.pts.sorted())
        XCTAssertEqual(slices.pts.count, 30)
    }

    func testRotationComesFromTheDisplayMatrix() throws {
        let upright = try Fixtures.make("upright.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x180:d=1", "-c:v", "libx264"])
        // FFmpeg 5.1 turns the rotate tag into a display matrix only on a stream copy.
        let path = try Fixtures.make("rotated90.mp4", ["-i", upright, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let d = try Demuxer(path: path)
        let info = d.stream(try XCTUnwrap(d.bestVideoStream))
        let probed = try ffprobe(["-select_streams", "v:0", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0", path])
        let ccw = try XCTUnwrap(Int(probed), "ffprobe's counter-clockwise figure")
        XCTAssertNotEqual(ccw, 0)
        XCTAssertEqual(info.rotation, (360 - ccw) % 360, "the same turn, clockwise")
        XCTAssertEqual(info.displaySize.width, 180)
        XCTAssertEqual(info.displaySize.height, 320)
    }

    func testResamplerConvertsAnyLayoutToTheDeviceFormat() throws {
        let path = try Fixtures.make(
            "surround-22k.mp4",
            [
                "-f", "lavfi", "-i", "sine=d=1:sample_rate=22050", "-f", "lavfi", "-i", "color=s=64x64:d=1",
                "-ac", "6", "-c:a", "aac", "-c:v", "libx264"
            ])
        let d = try Demuxer(path: path)
        let a = try XCTUnwrap(d.bestAudioStream)
        XCTAssertEqual(d.stream(a).channels, 6)
        let dec = try d.makeDecoder(stream: a)
        let resampler = Resampler.float32(rate: 48000, channels: 2)
        var inSamples = 0, outBytes = 0
        let packet = Packet(), frame = Frame()
        while try d.read(into: packet) {
            if packet.streamIndex == a {
                _ = try dec.send(packet)
                while try dec.receive(into: frame) == .frame {
                    inSamples += frame.sampleCount
                    outBytes += try resampler.convert(frame).count
                    frame.unref()
                }
            }
            packet.unref()
        }
        let outSamples = outBytes / resampler.bytesPerSample
        XCTAssertEqual(resampler.bytesPerSample, 8, "stereo float")
        XCTAssertEqual(Double(outSamples), Double(inSamples) * 48000 / 22050, accuracy: 200, "rate converted (less the resampler's delay)")
    }

    func testImagesDecodeToRGBAWithLibavcodec() throws {
        let png = try Fixtures.make(
            "quad.png",
            [
                "-f", "lavfi", "-i", "color=c=red:s=40x30", "-f", "lavfi", "-i", "color=c=blue:s=40x30",
                "-filter_complex", "[0][1]hstack,format=rgb24", "-frames:v", "1"
            ])
        let image = try ImageLoader.load(path: png)
        XCTAssertEqual(image.width, 80)
        XCTAssertEqual(image.height, 30)
        let left = Array(image.pixels[0..<4]), right = Array(image.pixels[((15 * 80 + 70) * 4)...].prefix(4))
        XCTAssertGreaterThan(left[0], 245); XCTAssertLessThan(left[2], 10); XCTAssertEqual(left[3], 255)
        XCTAssertGreaterThan(right[2], 245); XCTAssertLessThan(right[0], 10)
        let jpeg = try Fixtures.make("gray.jpg", ["-f", "lavfi", "-i", "color=c=gray:s=64x48", "-frames:v", "1"])
        let j = try ImageLoader.load(path: jpeg)
        XCTAssertEqual(j.width, 64)
        XCTAssertEqual(Int(j.pixels[0]), 128, accuracy: 6)
        XCTAssertThrowsError(try ImageLoader.load(path: "/nonexistent.png"))
    }
}
