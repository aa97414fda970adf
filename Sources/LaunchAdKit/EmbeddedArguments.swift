import LaunchAdCLI
import LaunchAdCore
import LaunchAdDelivery

/// The `launchad` arguments an application gives the embedding API: `play` or `launch`, with
/// every option they take except those about a window or a process, which the application owns.
enum EmbeddedArguments {
    /// Options refused, with why.
    static let refused: [String: String] = [
        "--events": "events come through the API's callback",
        "--control": "the application passes inputs through the API",
        "--then": "the application is already running",
        "--hold": "the application is already running",
        "--metrics": "the application writes its own metrics",
        "--fullscreen": "the application's window is its own",
        "--size": "the ad takes the size of the application's renderer or buffer",
        "--device": "the ad takes the size of the application's renderer or buffer",
        "--rotate": "the application's window is its own"
    ]

    static func parse(_ args: [String]) throws(UsageError) -> Command {
        for a in args {
            let name = a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a
            if let why = refused[name] { throw UsageError("\(name) is not for an embedded ad: \(why)") }
        }
        let command: Command
        do { command = try Command.parse(args) } catch let e as UsageError { throw e } catch { throw UsageError("\(error)") }
        switch command {
        case .play, .launch: return command
        default: throw UsageError("an embedded ad is a `play` or a `launch`: \(args.first ?? "nothing") was given")
        }
    }
}

/// The flows an embedded ad runs, the command line's own: `play` (a file, a URL, a VAST tag)
/// and `launch` (a manifest's cached ad; no app, no metrics).
enum EmbeddedFlow {
    static func run(
        _ command: Command, sink: EventSink, presenter: AdPresenter, refreshed: @escaping (BackgroundRefresh) -> Void
    ) {
        AddressPolicy.allowPrivateNetwork = command.allowsPrivateNetwork
        switch command {
        case .play(let options, let delivery):
            _ = PlayCommand.flow(options, delivery: delivery, sink: sink, presenter: presenter)
        case .launch(let options):
            _ = LaunchCommand.flow(options, sink: sink, presenter: presenter, refreshed: refreshed)
        default:
            sink.emit(.end(RunEnd(outcome: .noAd)))
        }
    }
}
