import LaunchAdCore
import LaunchAdEngine

/// What the command line asks for. Parsed by a pure function so every case is unit-tested.
public enum Command: Equatable, Sendable {
    case help(String)
    case version
    case play(PlayOptions, DeliveryOptions)
    case probe(ProbeOptions)
    case validate(ValidateOptions)
    case snapshot(SnapshotOptions)
    case preview(PreviewOptions)
    case launch(LaunchOptions)
    case prefetch(PrefetchOptions)
    case outbox(OutboxOptions)
    case schedule(ScheduleOptions)
    case fleet(FleetOptions)
    case manifest(ManifestOptions)

    public static let usage = """
        usage: launchad COMMAND [options]
        Launch ads on Linux: a video or image ad with a skip button before an application starts,
        creatives checked before rollout, VAST tags followed, beacons and play records delivered.
        Commands:
          play FILE          play a video or image ad with a skip button
          probe FILE         print a creative's media facts as JSON
          validate FILE...   check creatives against a profile or spec (text, json, junit, html)
          snapshot FILE      write a PNG contact sheet of evenly spaced frames
          preview FILE       the ad on each device's screen, side by side, in one PNG
          launch             show the cached ad, refresh the cache (--manifest), then --then CMD
          prefetch           refresh the ad cache from --manifest (cron, systemd timer)
          outbox status|flush  what beacons and play records wait to be delivered; deliver them now
          schedule           which ad a launch would show at a time, and why not the others
          fleet schema|report  play records in ClickHouse: the DDL, and the fleet's report per screen and ad
          manifest verify FILE  a signed manifest checked as a screen with --trust-key would take it
          help COMMAND       show a command's options
        Options:
          --help, -h         this text
          --version          the release, and the FFmpeg, SDL2 and libcurl it runs with
        Run 'launchad COMMAND --help' for a command's options.
        """

    public static func parse(_ args: [String]) throws -> Command {
        guard let word = args.first else { throw UsageError("no command given (try: launchad play FILE, or launchad --help)") }
        let rest = Array(args.dropFirst())
        switch word {
        case "--help", "-h", "help":
            if word == "help", let generated = try generatedHelp(rest) { return .help(generated) }
            // `help --help` (and `help help`) is the help command's own help: the list of commands.
            if let topic = rest.first, !["--help", "-h", "help"].contains(topic) { return .help(try helpText(for: topic)) }
            return .help(usage)
        case "--version": return .version
        case "play":
            guard let (o, d) = try PlayOptions.parseWithDelivery(rest) else { return .help(PlayOptions.help) }
            return .play(o, d)
        case "probe":
            guard let o = try ProbeOptions.parse(rest) else { return .help(ProbeOptions.help) }
            return .probe(o)
        case "validate":
            guard let o = try ValidateOptions.parse(rest) else { return .help(ValidateOptions.help) }
            return .validate(o)
        case "snapshot":
            guard let o = try SnapshotOptions.parse(rest) else { return .help(SnapshotOptions.help) }
            return .snapshot(o)
        case "preview":
            guard let o = try PreviewOptions.parse(rest) else { return .help(PreviewOptions.help) }
            return .preview(o)
        case "launch":
            guard let o = try LaunchOptions.parse(rest) else { return .help(LaunchOptions.help) }
            return .launch(o)
        case "prefetch":
            guard let o = try PrefetchOptions.parse(rest) else { return .help(PrefetchOptions.help) }
            return .prefetch(o)
        case "outbox":
            guard let o = try OutboxOptions.parse(rest) else { return .help(OutboxOptions.help) }
            return .outbox(o)
        case "schedule":
            guard let o = try ScheduleOptions.parse(rest) else { return .help(ScheduleOptions.help) }
            return .schedule(o)
        case "fleet":
            guard let o = try FleetOptions.parse(rest) else { return .help(FleetOptions.help) }
            return .fleet(o)
        case "manifest":
            guard let o = try ManifestOptions.parse(rest) else { return .help(ManifestOptions.help) }
            return .manifest(o)
        default:
            throw UsageError("unknown command '\(word)' (try: launchad --help)")
        }
    }

    /// `--allow-private-network` on the command line: the rule on internal addresses is off for the run.
    public var allowsPrivateNetwork: Bool {
        switch self {
        case .play(_, let d): return d.allowPrivateNetwork
        case .validate(let o): return o.allowPrivateNetwork
        case .launch(let o): return o.cache.delivery.allowPrivateNetwork
        case .prefetch(let o): return o.delivery.allowPrivateNetwork
        case .outbox(let o): return o.delivery.allowPrivateNetwork
        default: return false
        }
    }

    /// `help --man [COMMAND]` and `help --completion SHELL`: the help texts as a man page or a
    /// completion script (scripts/package.sh ships them); nil for any other `help`.
    static func generatedHelp(_ args: [String]) throws -> String? {
        switch args.first {
        case "--man":
            guard args.count <= 2 else { throw UsageError("help --man takes at most one COMMAND") }
            guard let page = ManPage.render(args.count == 2 ? args[1] : nil) else {
                throw UsageError("no manual page for '\(args[1])': not a command")
            }
            return page
        case "--completion":
            let shells = Completions.Shell.allCases.map(\.rawValue).joined(separator: ", ")
            guard args.count == 2, let shell = Completions.Shell(rawValue: args[1]) else {
                throw UsageError("help --completion takes one of \(shells)")
            }
            return Completions.render(shell)
        default:
            return nil
        }
    }

    static func helpText(for topic: String) throws -> String {
        switch topic {
        case "play": return PlayOptions.help
        case "probe": return ProbeOptions.help
        case "validate": return ValidateOptions.help
        case "snapshot": return SnapshotOptions.help
        case "preview": return PreviewOptions.help
        case "launch": return LaunchOptions.help
        case "prefetch": return PrefetchOptions.help
        case "outbox": return OutboxOptions.help
        case "schedule": return ScheduleOptions.help
        case "fleet": return FleetOptions.help
        case "manifest": return ManifestOptions.help
        default: throw UsageError("no help for '\(topic)': not a command")
        }
    }
}
