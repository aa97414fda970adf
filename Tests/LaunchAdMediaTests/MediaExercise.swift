import LaunchAdMedia

/// What the player does after opening a creative: pick the video stream, decode a few pictures
/// and convert them for the screen. Shared by the media fuzz target (scripts/fuzz.sh compiles
/// this file into the fuzzer, where the import above names its own module and is ignored) and
/// the regression tests that replay its finds.
func decodeFirstPictures(_ path: String, pictures limit: Int = 3) {
    guard let d = try? Demuxer(path: path), let v = d.bestVideoStream,
        let decoder = try? d.makeDecoder(stream: v, threads: 1)
    else { return }
    let packet = Packet(), frame = Frame(), scaler = Scaler.toYUV420P()
    var pictures = 0, packets = 0
    while pictures < limit, packets < 300, (try? d.read(into: packet)) == true {
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
