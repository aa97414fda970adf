// libFuzzer target: opening and probing media with LaunchAdMedia (Demuxer, MediaProbe), then
// what the player does next: pick the video stream, decode a few pictures, convert them for
// the screen, load the file as a still picture, and read its captions. The first byte picks
// the file's extension (names lie too); the rest is the file. Built by scripts/fuzz.sh into the same module as
// LaunchAdMedia's sources.
import CFFmpeg
import Foundation

private let quiet: Void = libavutil.av_log_set_level(AV_LOG_QUIET)
private let extensions = ["mp4", "png", "jpg", "ts", "gif", "mov", "webm", "bin"]

@_cdecl("LLVMFuzzerTestOneInput")
public func mediaFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = quiet
    guard size > 0 else { return 0 }
    let path = "/dev/shm/launchad-fuzz-\(getpid()).\(extensions[Int(data[0]) % extensions.count])"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data + 1, count: size - 1)) else { return 0 }
    defer { unlink(path) }
    _ = try? MediaProbe.probe(path)
    decodeFirstPictures(path)
    _ = try? ImageLoader.load(path: path)
    // The caption reader: text tracks, 608 tracks and A/53 SEI bytes parsed from video packets.
    _ = try? EmbeddedCaptions.read(path: path)
    return 0
}
