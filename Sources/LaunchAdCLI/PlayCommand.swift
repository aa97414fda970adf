import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia
import LaunchAdPlayer

/// The player of `launch --then`'s ad, kept after the ad until the app's window takes over.
public final class HeldPicture {
    var player: AdPlayer?
    init() {}
}

/// `launchad play`: one ad, events to stdout or `--events FILE`, the outcome's exit code.
public enum PlayCommand {
    /// `durationGiven`: `--duration` was on the command line (said to be unused on a video).
    public static func run(_ options: PlayOptions, delivery: DeliveryOptions = DeliveryOptions(), durationGiven: Bool = false) -> Int32 {
        // FFmpeg's ~30 ms of loading overlaps the outbox, the sniff and SDL's start-up.
        FFmpegLibraries.openInBackground()
        var sink: EventSink
        do { sink = try eventSink(path: options.eventsPath) } catch {
            FileHandle.standardError.write(TerminalText.line("\(error)"))
            return ExitCode.usage
        }
        let metricsPath = MetricsReport.check(options.metricsPath, events: sink)
        // Asked before anything plays, so a missing library ends the run with its `end`.
        if let problem = LibraryCheck.player() {
            sink.emit(.error(PlayError(.libraryMissing, problem)))
            sink.emit(.end(RunEnd(outcome: .error)))
            return ExitCode.libraryMissing
        }
        IgnoredOptions.notes(options).forEach(IgnoredOptions.print)
        let metrics = metricsPath.map { _ in MetricsSink(sink, adID: (options.file as NSString).lastPathComponent) }
        if let metrics { sink = metrics }
        if durationGiven && options.fallback == nil { sink = DurationNoteSink(sink) }
        let (outcome, outbox) = flow(options, delivery: delivery, sink: sink, presenter: WindowPresenter())
        if let path = metricsPath { MetricsReport.write(path, run: metrics?.run, cache: nil, outbox: outbox) }
        return outcome.exitCode
    }

    /// `play`'s run, shown by `presenter`: one ad (a file or URL) or a VAST tag's pod, the outbox
    /// sending meanwhile and given `--beacon-wait` after; the embedding library runs it too.
    public static func flow(_ options: PlayOptions, delivery: DeliveryOptions, sink: EventSink, presenter: AdPresenter) -> (
        Outcome, Outbox?
    ) {
        // What earlier runs left in the outbox goes out while this ad plays, on its own thread.
        var delivery = delivery
        delivery.allowHTTP = delivery.allowHTTP || options.vast.allowHTTP
        let outbox = delivery.openOutbox(events: sink)
        outbox?.startSending()
        let outcome: Outcome
        let began = ProcessClock.uptimeSeconds()
        // Network creatives under the default policy; `play --allow-http` also lets a plain-http
        // creative stream from any host.
        var streaming = PrefetchOptions()
        streaming.allowHTTP = delivery.allowHTTP
        // What the command line names may reach any address; a tag's media files get their chain's reach.
        let network = { (reach: Reach) in PrefetchCommand.streaming(streaming, reach: reach) }
        if isTag(options) {
            // One play record per ad played (`--report`), the ad's id in it.
            outcome = VASTPlay.play(
                options, sink: sink, queue: outbox, network: network, presenter: presenter,
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
            outcome = play(options, sink: AdStream(sink, record: record), network: network(.any), presenter: presenter).outcome
        }
        outbox?.finish(waitingAtMost: delivery.beaconWait)
        return (outcome, outbox)
    }

    /// `--vast`, or a FILE or URL whose root element is `<VAST>`. The sniff fits inside `--wait`.
    static func isTag(_ o: PlayOptions) -> Bool {
        o.vast.tag != nil || TagSniffer.isTag(o.file, allowHTTP: o.vast.allowHTTP, timeout: min(o.vast.timeout, o.wait))
    }

    /// Plays one ad (a file path or an http(s) URL) with its fallback; emits every event (up to
    /// and including the single `end` when `reportsEnd`), and returns how it ended. `launch` and
    /// each VAST ad call this too. With `holding`, the window and the ad's last picture stay for
    /// the hand-off to the app. `network` opens an http(s) creative, held to the reach of whoever
    /// named it. `sideLoads`: a VAST ad's caption file and icon pictures, loaded beside playback;
    /// without a caption reader there, `--captions` is read beside playback, with `network`'s
    /// reach. `icons`: a VAST ad's icons, fetched by `sideLoads.icon`. `givesWay`: a file that
    /// does not open ends the play quietly (a VAST ad's next media file is tried).
    public static func play(
        _ options: PlayOptions, sink: EventSink, network: NetworkOpener, presenter: AdPresenter, holding: HeldPicture? = nil,
        sideLoads: SideLoads = SideLoads(), icons: [OverlayIcon] = [], reportsEnd: Bool = true, givesWay: Bool = false
    ) -> PlayResult {
        MediaLog.configure()
        var config = PlayerConfig(options)
        config.session.reportsEnd = reportsEnd
        config.session.givesWayOnOpenFailure = givesWay
        config.icons = icons
        var sideLoads = sideLoads
        if sideLoads.captions == nil, let file = options.captions {
            sideLoads.captions = CaptionStep.loader(file, source: .sidecar, reach: network.reach, o: options)
        }
        let player = AdPlayer(config: config, events: sink, network: network)
        player.sideLoads = sideLoads
        player.notifier = serviceNotifier
        if let holding {
            player.holdsLastPicture = true
            holding.player = player
        }
        return presenter.present(player)
    }

    /// systemd's notify socket when run as a `Type=notify` service; one for the whole process.
    static let serviceNotifier = SystemdNotifier.fromEnvironment()

    /// stdout, or the file `--events` names.
    public static func eventSink(path: String?) throws -> EventSink {
        // `-` is stdout, as for most tools, not a file named `-`.
        guard let path, path != "-" else { return JSONLinesSink(handle: .standardOutput) }
        return try JSONLinesSink(path: path)
    }
}
