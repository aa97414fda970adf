import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdPlayer

/// A VAST ad's `<ClosedCaptionFiles>`: the chosen file read like a sidecar (a `captions` or
/// `captions_error` event with `source: vast`). A `--captions` file given by the user wins.
enum VASTCaptions {
    /// The chosen file's reader (run beside playback), its URL held to `reach` (the ad's chain).
    static func loader(_ files: [VASTCaptionFile], reach: Reach, o: PlayOptions, network: RunNetwork) -> SideLoads.Captions? {
        guard o.captions == nil, o.captionMode != .off,
            let file = VASTCaptionChoice.choose(files, preferred: o.captionLanguage, locale: systemLanguage)
        else { return nil }
        return CaptionStep.loader(file.url, source: .vast, language: file.language, reach: reach, o: o, network: network)
    }

    /// The user's language from the POSIX locale variables, in their order of precedence.
    public static var systemLanguage: String? {
        let env = ProcessInfo.processInfo.environment
        return ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { env[$0].flatMap(CaptionLanguage.fromLocale) }.first
    }
}
