/// A VAST failure with its code from the spec's table; the code goes into the Error URIs'
/// `[ERRORCODE]` and the `error` event.
public struct VASTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The VAST error code (100-900), as `[ERRORCODE]` fills in.
    public var code: Int
    /// What went wrong, in words, for logs and reports.
    public var message: String

    /// An error with VAST `code` and `message`.
    public init(_ code: Int, _ message: String) { self.code = code; self.message = message }

    /// "VAST error CODE: message".
    public var description: String { "VAST error \(code): \(message)" }

    // The spec's codes that LaunchAd reports.
    /// 100: XML parsing error (also a document over the size limit or past the parse deadline).
    public static let xmlParse = 100
    /// 101: the document breaks the VAST schema (wrong root, missing element, unsafe URI).
    public static let schema = 101
    /// 102: a VAST version this player does not support.
    public static let version = 102
    /// 201: the player expects a linear ad; the ad has only non-linear ones.
    public static let linearity = 201
    /// 300: general wrapper error (a loop, or a further wrapper not allowed).
    public static let wrapper = 300
    /// 301: a wrapped tag URI could not be fetched (timeout, HTTP error, bad URL).
    public static let wrapperTimeout = 301
    /// 302: more wrappers than `--max-wrappers`.
    public static let wrapperLimit = 302
    /// 303: no ad in the response, or none after the wrappers.
    public static let noAd = 303
    /// 400: general linear error.
    public static let linear = 400
    /// 401: the media file could not be found or fetched.
    public static let fileNotFound = 401
    /// 402: the media file did not start in time.
    public static let mediaTimeout = 402
    /// 403: no media file this player can play by its attributes.
    public static let noSupportedMedia = 403
    /// 405: a chosen media file could not be displayed.
    public static let mediaDisplay = 405
    /// 900: any other error.
    public static let undefined = 900

    /// A player `error` event's code (from LaunchAdMedia or the session) as a VAST code.
    public static func code(forPlayerError code: String) -> Int {
        switch code {
        // open_failed: FFmpeg could not fetch it (a 404, a refused connection).
        case "file_not_found", "open_failed", "permission_denied": return fileNotFound
        case "first_frame_timeout": return mediaTimeout
        // Chosen by its attributes, then not decodable here: a problem displaying it (405);
        // 403 is for attributes that rule every file out.
        case "decoder_missing", "not_media", "no_video_stream": return mediaDisplay
        // media_truncated, media_stalled: shown, then the file ended early or stopped coming (a problem displaying it).
        case "media_truncated", "media_stalled": return mediaDisplay
        default: return mediaDisplay
        }
    }
}
