import Foundation

/// What reading one document from outside may cost: at most `maxBytes` bytes, and no work past
/// `deadline`. Every document parser (VAST and TTML through `XMLTree`, WebVTT, SRT, manifests)
/// takes one as a required argument of its one entry, checks the size before it starts and the
/// deadline as it goes, so no parser can be written or called without a bound.
public struct ParseBudget: Sendable {
    /// The largest document accepted.
    public let maxBytes: Int
    /// When the parse must give up.
    public let deadline: Date
    /// What the limit is called in the error (`--vast-timeout`, `--wait`).
    public let limitName: String

    /// `maxBytes` and `seconds` from now; `limitName` names the option that set the seconds.
    public init(maxBytes: Int, seconds: Double, limitName: String) {
        self.maxBytes = maxBytes
        // A NaN or negative time (a caller's bug) gives no time at all rather than forever.
        deadline = Date(timeIntervalSinceNow: seconds.isFinite ? max(0, min(seconds, 86_400)) : 0)
        self.limitName = limitName
    }

    /// Throws when `count` bytes are over the cap.
    public func check(bytes count: Int, what: String) throws(ParseBudgetExceeded) {
        if count > maxBytes { throw ParseBudgetExceeded("\(what) is \(count) bytes, over the \(maxBytes)-byte limit") }
    }

    /// `maxBytes`, to be read by `deadline` (a test's budget already spent, without waiting for one to run out).
    public init(maxBytes: Int, deadline: Date, limitName: String) {
        self.maxBytes = maxBytes
        self.deadline = deadline
        self.limitName = limitName
    }

    /// Whether the deadline has passed.
    public var isExpired: Bool { Date() > deadline }

    /// Throws once the deadline has passed.
    public func checkTime(what: String) throws(ParseBudgetExceeded) {
        if isExpired { throw ParseBudgetExceeded("reading \(what) took longer than \(limitName)") }
    }
}

/// A document over its `ParseBudget`: too large, or read past its deadline.
public struct ParseBudgetExceeded: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why, in one line.
    public let message: String
    /// The error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
