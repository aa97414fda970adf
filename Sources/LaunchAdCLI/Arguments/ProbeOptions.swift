import LaunchAdCore
import LaunchAdEngine

/// What `launchad probe` is told: one file.
public struct ProbeOptions: Equatable, Sendable {
    public var file: String

    public init(file: String) { self.file = file }

    public static let help = """
        usage: launchad probe FILE
        Prints a creative's facts as JSON: container, duration, size, faststart, and per stream codec,
        profile, level, size, display aspect, rotation, pixel format, colour range and space, frame rate
        (and whether it varies), bitrate, keyframe interval; sample rate and channels for audio.
        Exit codes: 0 facts printed, 1 the file cannot be read as media, 2 usage.
        """

    public static func parse(_ args: [String]) throws -> ProbeOptions? {
        var r = ArgumentReader(args)
        while let opt = r.nextOption() {
            if opt == "--help" { return nil }
            throw UsageError("unknown option \(opt) (see launchad probe --help)")
        }
        guard r.positionals.count == 1 else {
            throw UsageError(r.positionals.isEmpty ? "probe needs a FILE" : "probe takes one FILE, got \(r.positionals.count)")
        }
        return ProbeOptions(file: r.positionals[0])
    }
}
