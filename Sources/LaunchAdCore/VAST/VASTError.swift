/// A VAST failure with its code from the spec's table; the code goes into the Error URIs'
/// `[ERRORCODE]` and the `error` event.
public struct VASTError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int
    public var message: String

    public init(_ code: Int, _ message: String) { self.code = code; self.message = message }

    public var description: String { "VAST error \(code): \(message)" }

    // The spec's codes that LaunchAd reports.
    public static let xmlParse = 100
    public static let schema = 101
    public static let version = 102
    public static let linearity = 201
    public static let wrapper = 300
    public static let wrapperTimeout = 301
    public static let wrapperLimit = 302
    public static let noAd = 303
    public static let linear = 400
    public static let fileNotFound = 401
    public static let mediaTimeout = 402
    public static let noSupportedMedia = 403
    public static let mediaDisplay = 405
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
        // media_truncated: shown, then the file ended early (a problem displaying it).
        case "media_truncated": return mediaDisplay
        default: return mediaDisplay
        }
    }
}
