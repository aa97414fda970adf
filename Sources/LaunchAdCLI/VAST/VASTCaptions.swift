import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// A VAST ad's `<ClosedCaptionFiles>`: the chosen file read like a sidecar (a `captions` or
/// `captions_error` event with `source: vast`). A `--captions` file given by the user wins.
enum VASTCaptions {
    static func load(_ files: [VASTCaptionFile], o: PlayOptions, sink: EventSink) -> CaptionTrack? {
        guard o.captions == nil, o.captionMode != .off,
            let file = VASTCaptionChoice.choose(files, preferred: o.captionLanguage, locale: systemLanguage)
        else { return nil }
        return CaptionStep.load(file.url, source: .vast, language: file.language, o: o, sink: sink)
    }

    /// `validate --vast`: every caption file LaunchAd reads, fetched and parsed (nil: not fetched).
    static func read(_ files: [VASTCaptionFile], _ o: ValidateOptions) -> [(
        file: VASTCaptionFile, read: Result<CaptionParse, CaptionError>?
    )] {
        let client = HTTPClient(connectTimeout: o.vastTimeout, totalTimeout: o.vastTimeout, allowHTTP: o.allowHTTP)
        return files.map { f in (f, f.format != nil && Link.isAllowed(f.url) ? CaptionLoader.load(f.url, fetcher: client) : nil) }
    }

    /// The user's language from the POSIX locale variables, in their order of precedence.
    static var systemLanguage: String? {
        let env = ProcessInfo.processInfo.environment
        return ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { env[$0].flatMap(CaptionLanguage.fromLocale) }.first
    }
}
