import Foundation
import LaunchAdCore
import LaunchAdMedia

/// Work that belongs to an ad but never to its first frame: a caption file fetched and parsed,
/// an icon's picture fetched. Each runs on a thread of its own once the player starts, and the
/// main loop joins what is ready; a stop aborts what is still waiting (`isAborted` turns true).
public struct SideLoads: Sendable {
    /// Reads the ad's caption file, reporting through `events` (`captions` or `captions_error`);
    /// nil when there is none to read or it could not be used.
    public typealias Captions = @Sendable (_ events: EventSink, _ isAborted: @escaping @Sendable () -> Bool) -> CaptionTrack?
    /// Fetches `icon`'s picture to `icon.file` and checks it may be decoded; throws why not.
    public typealias Icon = @Sendable (_ icon: OverlayIcon, _ isAborted: @escaping @Sendable () -> Bool) throws -> Void

    /// The caption file's reader, if the ad has one.
    public var captions: Captions?
    /// The icons' fetcher (the icons themselves are `PlayerConfig.icons`).
    public var icon: Icon?

    /// Nothing to load beside playback.
    public init(captions: Captions? = nil, icon: Icon? = nil) { self.captions = captions; self.icon = icon }
}

/// A caption file read beside playback (`SideLoads.captions`).
final class CaptionFileJob: Sendable {
    private let abort = AbortFlag()
    private let result = Locked<CaptionTrack??>(nil)

    init(_ load: @escaping SideLoads.Captions, events: EventSink, in group: DispatchGroup) {
        startEngineThread("launchad-capfile", in: group) { [self, abort] in
            let track = load(events) { abort.isSet }
            result.withLock { $0 = .some(track) }
        }
    }

    /// The track (nil inside: nothing usable) once read; nil while reading.
    var outcome: CaptionTrack?? { result.withLock { $0 } }

    func stop() { abort.set() }
}
