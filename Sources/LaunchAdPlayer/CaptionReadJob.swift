import Foundation
import LaunchAdCore
import LaunchAdMedia

/// Reads the creative's own caption track (a text track, CEA-608) on a thread of its own, so
/// the first frame never waits for it; the main loop adds the cues when they are there. A
/// second reader of a local file only: a network creative is not fetched twice for its captions.
final class CaptionReadJob: Sendable {
    private let abort = AbortFlag()
    private let result = Locked<Result<EmbeddedCaptions?, any Error>?>(nil)

    init(path: String, preferred: String?, in group: DispatchGroup) {
        startEngineThread("launchad-capts", in: group) { [self, abort] in
            let read = Result { try EmbeddedCaptions.read(path: path, preferred: preferred, abort: abort) }
            result.withLock { $0 = read }
        }
    }

    /// The track (nil inside: the file has none) or the error, once read; nil while reading.
    var outcome: Result<EmbeddedCaptions?, any Error>? { result.withLock { $0 } }

    func stop() { abort.set() }
}
