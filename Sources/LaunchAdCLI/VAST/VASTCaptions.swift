import Foundation
import LaunchAdCore

/// A VAST ad's `<ClosedCaptionFiles>`: the chosen file read like a sidecar (a `captions` or
/// `captions_error` event with `source: vast`). A `--captions` file given by the user wins.
enum VASTCaptions {
    static func load(_ files: [VASTCaptionFile], o: PlayOptions, sink: EventSink) -> CaptionTrack? {
        guard o.captions == nil, o.captionMode != .off,
              let file = VASTCaptionChoice.choose(files, preferred: o.captionLanguage, locale: systemLanguage) else { return nil }
        return CaptionStep.load(file.url, source: "vast", language: file.language, o: o, sink: sink)
    }

    /// The user's language from the POSIX locale variables, in their order of precedence.
    static var systemLanguage: String? {
        let env = ProcessInfo.processInfo.environment
        return ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { env[$0].flatMap(CaptionLanguage.fromLocale) }.first
    }
}
