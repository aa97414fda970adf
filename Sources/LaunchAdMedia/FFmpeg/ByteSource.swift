import Foundation
import LaunchAdCore

/// Bytes of a creative: FFmpeg reads every input through one of these (a custom AVIOContext),
/// never with its own file, http or tls protocols, so every byte obeys the rules of whoever
/// supplies it (FileByteSource for a local file; the delivery layer's https, redirect, address
/// and size policy for a network creative). LaunchAdMedia defines the seam; it does not know about HTTP.
public protocol ByteSource: AnyObject, Sendable {
    /// The total size, once known.
    var size: Int64? { get }
    /// Copies bytes starting at `offset` into `buffer`; 0 at the end. Throws the one-line reason
    /// reading stopped (a policy refusal, a timeout).
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Makes a blocked or later read fail at once (the ad was skipped or stopped).
    func cancel()
}

/// Opens http(s) creatives, given to whatever opens one (the demuxer, through the player or
/// the image loader). Without one, network URLs are refused: FFmpeg's own network code is never used.
/// It carries the reach of the document that named what it will open (no default): the reach
/// travels with the opener FFmpeg reads through, never through a table kept beside it.
public struct NetworkOpener: Sendable {
    /// `isAborted` turns true when the run stops: an open still waiting on the network gives up.
    public typealias Open = @Sendable (URL, _ isAborted: @escaping @Sendable () -> Bool) throws -> ByteSource

    private let openURL: Open
    /// Which addresses what this opener opens may reach.
    public let reach: Reach

    public init(reach: Reach, _ open: @escaping Open) {
        self.reach = reach
        openURL = open
    }

    static func isNetwork(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// `opener`'s source for `path`; a refusal when there is none.
    static func open(_ path: String, with opener: NetworkOpener?, isAborted: @escaping @Sendable () -> Bool) throws -> ByteSource {
        guard let url = URL(string: path) else { throw MediaError(.openFailed, "\(path) is not a URL") }
        guard let opener else {
            throw MediaError(.openFailed, "cannot open \(path): no network source is set up")
        }
        do { return try opener.openURL(url, isAborted) } catch let e as MediaError { throw e } catch {
            throw MediaError(.openFailed, "cannot open \(path): \(error)")
        }
    }
}
