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

    init(path: String, isFallback: Bool, network: NetworkOpener?, in group: DispatchGroup) {
        self.path = path
        self.isFallback = isFallback
        startEngineThread("launchad-image", in: group) { [self] in
            let decoded = Result { try ImageLoader.load(path: path, network: network) }
            result.withLock { $0 = decoded }
        }
    }

    /// The decoded picture or the error, once the thread is done; nil while it works.
    var outcome: Result<RGBAImage, any Error>? { result.withLock { $0 } }
}
