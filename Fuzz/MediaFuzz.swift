// libFuzzer target: opening and probing media with LaunchAdMedia (Demuxer, MediaProbe), then
// what the player does next: pick the video stream, decode a few pictures, convert them for
// the screen, and load the file as a still picture. The first byte picks the file's extension
// (names lie too); the rest is the file. Built by scripts/fuzz.sh into the same module as
// LaunchAdMedia's sources.
import CFFmpeg
import Foundation

private let quiet: Void = av_log_set_level(AV_LOG_QUIET)
private let extensions = ["mp4", "png", "jpg", "ts", "gif", "mov", "webm", "bin"]

@_cdecl("LLVMFuzzerTestOneInput")
public func mediaFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = quiet
    guard size > 0 else { return 0 }
    let path = "/dev/shm/launchad-fuzz-\(getpid()).\(extensions[Int(data[0]) % extensions.count])"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data + 1, count: size - 1)) else { return 0 }
    defer { unlink(path) }
    _ = try? MediaProbe.probe(path)
    if let d = try? Demuxer(path: path), let v = d.bestVideoStream, let decoder = try? d.makeDecoder(stream: v, threads: 1) {
        let packet = Packet(), frame = Frame(), scaler = Scaler.toYUV420P()
        var pictures = 0, packets = 0
        while pictures < 3, packets < 300, (try? d.read(into: packet)) == true {
            packets += 1
            defer { packet.unref() }
            guard packet.streamIndex == v else { continue }
            _ = try? decoder.send(packet)
            while (try? decoder.receive(into: frame)) == .frame {
                pictures += 1
                if !frame.isYUV420P { _ = try? scaler.convert(frame) }
                frame.unref()
            }
        }
    }
    _ = try? ImageLoader.load(path: path)
    return 0
}
