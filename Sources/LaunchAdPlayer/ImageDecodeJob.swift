import Foundation
import LaunchAdCore
import LaunchAdMedia

/// Decodes a still image (the ad, the fallback or the logo) on a thread of its own, so a large
/// or remote picture never holds up the window, input or the first-frame deadline. The main
/// loop collects the result when it is there.
final class ImageDecodeJob: Sendable {
    let path: String
    let isFallback: Bool
    private let result = Locked<Result<RGBAImage, any Error>?>(nil)
    private let abort = AbortFlag()

    /// `prepare` runs first on the job's thread (an icon's fetch); a throw is the job's error.
    /// `wake` is called once the outcome is there, so whoever collects it need not look again
    /// and again (an embedded ad being prepared says `ready` as soon as its fallback is decoded).
    init(
        path: String, isFallback: Bool, network: NetworkOpener?, in group: DispatchGroup,
        wake: @escaping @Sendable () -> Void,
        prepare: (@Sendable (_ isAborted: @escaping @Sendable () -> Bool) throws -> Void)? = nil
    ) {
        self.path = path
        self.isFallback = isFallback
        startEngineThread("launchad-image", in: group) { [self, abort] in
            let decoded = Result {
                try prepare?({ abort.isSet })
                return try ImageLoader.load(path: path, network: network)
            }
            result.withLock { $0 = decoded }
            wake()
        }
    }

    /// The decoded picture or the error, once the thread is done; nil while it works.
    var outcome: Result<RGBAImage, any Error>? { result.withLock { $0 } }

    /// Abandons a `prepare` still waiting on the network.
    func stop() { abort.set() }
}
