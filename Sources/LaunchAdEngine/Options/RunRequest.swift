import LaunchAdCore

/// A run the engine plays, read from `launchad` arguments by the same parsers for both front
/// ends: `play FILE|URL|--vast TAG [options]` or `launch --manifest M [options]`.
public enum RunRequest: Equatable, Sendable {
    case play(PlayOptions, DeliveryOptions)
    case launch(LaunchOptions)

    /// The run `args` asks for (the word `play` or `launch`, then its options); nil for `--help`
    /// after that word, a usage error for anything else.
    public static func parse(_ args: [String]) throws -> RunRequest? {
        switch args.first {
        case "play": return try PlayOptions.parseWithDelivery(Array(args.dropFirst())).map { .play($0, $1) }
        case "launch": return try LaunchOptions.parse(Array(args.dropFirst())).map { .launch($0) }
        default: throw UsageError("not a run: \(args.first.map { "'\($0)'" } ?? "nothing") (play or launch)")
        }
    }
}
