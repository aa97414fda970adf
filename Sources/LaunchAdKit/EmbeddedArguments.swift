import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

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

    static func parse(_ args: [String]) throws(UsageError) -> RunRequest {
        for a in args {
            let name = a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a
            if let why = refused[name] { throw UsageError("\(name) is not for an embedded ad: \(why)") }
        }
        guard args.first == "play" || args.first == "launch" else {
            throw UsageError("an embedded ad is a `play` or a `launch`: \(args.first ?? "nothing") was given")
        }
        let request: RunRequest?
        do { request = try RunRequest.parse(args) } catch let e as UsageError { throw e } catch { throw UsageError("\(error)") }
        guard let request else { throw UsageError("--help is for the command line: see docs/embedding.md") }
        return request
    }
}

/// The flows an embedded ad runs, the engine's, as the command line runs them: `play` (a file, a
/// URL, a VAST tag) and `launch` (a manifest's cached ad; no app, no metrics).
enum EmbeddedFlow {
    static func run(
        _ request: RunRequest, sink: EventSink, presenter: AdPresenter, context: RunContext,
        refreshed: @escaping (BackgroundRefresh) -> Void
    ) {
        switch request {
        case .play(let options, let delivery):
            _ = PlayFlow.run(options, delivery: delivery, sink: sink, presenter: presenter, context: context)
        case .launch(let options):
            _ = LaunchFlow(options, sink: sink, context: context).run(presenter: presenter, refreshed: refreshed)
        }
    }
}
