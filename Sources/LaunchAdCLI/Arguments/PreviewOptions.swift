import LaunchAdCore
import LaunchAdEngine

/// `launchad preview`'s command line: the file, the devices, the moment, and the player options
/// that shape what a screen shows.
public struct PreviewOptions: Equatable, Sendable {
    public var file = ""
    public var out = ""
    public var devices = PreviewDevice.all
    /// Seconds into the ad; 0 is its first frame.
    public var at = 0.0
    public var play = PlayOptions()

    public init() {}

    public static let help = """
        usage: launchad preview FILE --out gallery.png [--devices LIST|all] [--at S] [player options]
        Draws the ad at S seconds on each device's screen, as the player would show it (layout, fit,
        logo band, skip button as it reads then), side by side at one height with each device's name
        and size, into one PNG. Needs no display.
          --out FILE.png         where to write the gallery (required)
          --devices LIST|all     comma-separated, from \(PreviewDevice.all.map(\.name).joined(separator: ", ")) (default all)
          --at S                 the moment shown, in seconds of the ad (default 0: its first frame)
        Player options that change what a screen shows: --fit, --layout, --logo, --skip-style, --skip-after,
        --no-skip, --skip-label, --font, --duration, --max-duration (see launchad play --help).
        Exit codes: 0 written, 1 the file cannot be read, --at is past its end or the PNG cannot be written, 2 usage.
        """

    /// Player options that only matter to a window or a run: a preview has neither.
    static let notForPreview = [
        "--events", "--size", "--device", "--fullscreen", "--link", "--open-links", "--no-pause-on-blur",
        "--transition", "--fallback", "--wait", "--control", "--mute", "--rotate"
    ]

    public static func parse(_ args: [String]) throws -> PreviewOptions? {
        var r = ArgumentReader(args)
        var o = PreviewOptions()
        var durationGiven = false
        while let opt = r.nextOption() {
            switch opt {
            case "--help": return nil
            case "--out": o.out = try r.value(for: opt)
            case "--devices": o.devices = try PreviewDevice.parseList(try r.value(for: opt))
            case "--at": o.at = try r.double(for: opt, max: 86_400)
            case _ where notForPreview.contains(opt):
                throw UsageError("\(opt) does not change a preview (see launchad preview --help)")
            default:
                do { try o.play.apply(opt, &r, durationGiven: &durationGiven) } catch let e as UsageError
                    where e.message.hasPrefix("unknown option")
                {
                    throw UsageError("unknown option \(opt) (see launchad preview --help)")
                }
            }
        }
        guard r.positionals.count == 1 else {
            throw UsageError(r.positionals.isEmpty ? "preview needs a FILE" : "preview takes one FILE, got \(r.positionals.count)")
        }
        o.file = r.positionals[0]
        o.play.file = o.file
        if o.out.isEmpty { throw UsageError("preview needs --out FILE.png") }
        try o.play.check()
        return o
    }
}
