import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia
import LaunchAdPlayer

/// The player of `launch --then`'s ad, kept after the ad until the app's window takes over.
public final class HeldPicture {
    public internal(set) var player: AdPlayer?
    public init() {}
}

/// `play`'s run: one ad (a file or URL) or a VAST tag's pod, shown by a presenter (the command
/// line's window or an application's), the outbox sending meanwhile and given `--beacon-wait`
/// after. Both front ends call it; neither adds a rule of its own.
public enum PlayFlow {
    /// Plays and returns how the run ended and the outbox it used (for the command line's metrics).
    public static func run(
        _ options: PlayOptions, delivery: DeliveryOptions, sink: EventSink, presenter: AdPresenter, context: RunContext
    ) -> (Outcome, Outbox?) {
        // FFmpeg, SDL2 and SDL2_ttf asked for before anything plays (loaded here, on the run's
        // thread): one that is missing ends the run with its `end`, never the process.
        if let problem = FFmpegLibraries.problem() ?? SDLLibraries.problem() {
            context.note(problem)
            sink.emit(.error(PlayError(.libraryMissing, problem)))
            sink.emit(.end(RunEnd(outcome: .error)))
            return (.error, nil)
        }
        let network = RunNetwork(play: options, delivery: delivery)
        // What earlier runs left in the outbox goes out while this ad plays, on its own thread.
        let outbox = delivery.openOutbox(events: sink, network: network)
        outbox?.startSending()
        let outcome: Outcome
        let began = ProcessClock.uptimeSeconds()
        if isTag(options, network: network) {
            // One play record per ad played (`--report`), the ad's id in it.
            outcome = VASTPlay.play(
                options, sink: sink, queue: outbox, network: network, presenter: presenter, context: context,
                record: delivery.recordingEachAd(sink, outbox: outbox, options: options))
        } else {
            // The sniff's time came out of --wait: the first frame (or the fallback) is due
            // --wait seconds after the start, however slow the server was to answer the sniff.
            var options = options
            options.wait = max(0, options.wait - (ProcessClock.uptimeSeconds() - began))
            let file = options.file
            let record = delivery.recording(
                sink, target: delivery.reportTarget, outbox: outbox, adID: nil,
                sha256: { file.contains("://") ? nil : try? SHA256.hex(ofFile: file) }, options: options)
            // What the user names may reach any address.
            let ad = AdPlay(options: options, network: network, reach: .any, context: context)
            outcome = ad.play(sink: AdStream(sink, record: record), presenter: presenter).outcome
        }
        outbox?.finish(waitingAtMost: delivery.beaconWait, cancellation: context.cancellation)
        return (outcome, outbox)
    }

    /// `--vast`, or a FILE or URL whose root element is `<VAST>`. The sniff fits inside `--wait`.
    static func isTag(_ o: PlayOptions, network: RunNetwork) -> Bool {
        o.vast.tag != nil || TagSniffer.isTag(o.file, client: network.documents(seconds: min(o.vast.timeout, o.wait)))
    }
}

/// One ad (a file path or an http(s) URL) with its fallback, as every flow plays it: `play`,
/// each VAST ad and media file, `launch`'s chosen ad.
struct AdPlay {
    var options: PlayOptions
    /// The run's network: an http(s) creative, and `--captions` when the ad brings no caption
    /// reader of its own, are opened through it.
    var network: RunNetwork
    /// The reach of whoever named the creative (and the captions).
    var reach: Reach
    var context: RunContext
    /// A VAST ad's caption file and icon pictures, loaded beside playback.
    var sideLoads = SideLoads()
    /// A VAST ad's icons, fetched by `sideLoads.icon`.
    var icons: [OverlayIcon] = []
    /// Emits the single `end` itself (false: the flow writes the run's end).
    var reportsEnd = true
    /// A file that does not open ends the play quietly (a VAST ad's next media file is tried).
    var givesWay = false
    /// The window and the ad's last picture stay for the hand-off to the app.
    var holding: HeldPicture?

    init(options: PlayOptions, network: RunNetwork, reach: Reach, context: RunContext) {
        self.options = options; self.network = network; self.reach = reach; self.context = context
    }

    /// Emits every event (up to and including the single `end` when `reportsEnd`) and returns how it ended.
    func play(sink: EventSink, presenter: AdPresenter) -> PlayResult {
        var config = PlayerConfig(options)
        config.session.reportsEnd = reportsEnd
        config.session.givesWayOnOpenFailure = givesWay
        config.icons = icons
        var sideLoads = sideLoads
        if sideLoads.captions == nil, let file = options.captions {
            sideLoads.captions = CaptionStep.loader(file, source: .sidecar, reach: reach, o: options, network: network)
        }
        let player = AdPlayer(config: config, events: sink, network: network.streaming(reach: reach))
        player.sideLoads = sideLoads
        player.notifier = context.notifier
        player.pulse = context.pulse
        if let holding {
            player.holdsLastPicture = true
            holding.player = player
        }
        return presenter.present(player)
    }
}
