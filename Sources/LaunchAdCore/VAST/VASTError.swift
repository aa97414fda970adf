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
}
