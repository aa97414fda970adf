/// `play`'s VAST options: the tag and how it is fetched and mapped.
public struct VASTOptions: Equatable, Sendable {
    /// `--vast URL|FILE`; nil when the positional FILE is played (it may still be sniffed as a tag).
    public var tag: String?
    /// `--vast-timeout`: seconds per document.
    public var timeout: Double = 5
    /// `--max-wrappers`: the most wrappers followed before failing with 302.
    public var maxWrappers = 5
    /// `--max-bitrate`: media files declaring more kbit/s are refused; nil for no cap.
    public var maxBitrateKbps: Int?
    /// Plain http to hosts other than loopback.
    public var allowHTTP = false
    /// Whether `--skip-after` was given: a VAST ad without `skipoffset` is skippable only then.
    public var skipAfterGiven = false

    /// The defaults: no tag, 5 s per document, 5 wrappers, no bitrate cap, no plain http except to loopback.
    public init() {}
}
