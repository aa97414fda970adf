import Foundation

/// What the outbox does with one send's answer.
public enum DeliveryVerdict: String, Equatable, Sendable {
    /// The server has it: the item leaves the outbox.
    case delivered
    /// Worth another try later (the server was down, slow or overloaded).
    case retry
    /// The server will never take it: the item leaves the outbox, counted as refused.
    case refused
}

/// The outbox's delivery decisions, apart from the files and sockets that carry them out.
public enum DeliveryRule {
    /// 2xx and 3xx deliver (a redirect that was not followed further still reached a server);
    /// 408, 429 and 5xx are worth another try; any other 4xx is final. Anything else is odd
    /// enough to try again.
    public static func verdict(status: Int) -> DeliveryVerdict {
        switch status {
        case 200..<400: return .delivered
        case 408, 429: return .retry
        case 400..<500: return .refused
        default: return .retry
        }
    }

    /// Seconds to wait after `attempts` failed tries: `base`·2^(attempts-1) up to `cap`, times a
    /// jitter factor from 0.5 to 1.5 (`unit` in 0..<1 from the caller's random source) so that
    /// many kiosks coming back online do not all retry in the same second.
    public static func backoff(attempts: Int, base: Double, cap: Double, unit: Double) -> Double {
        let exponent = Double(min(max(attempts - 1, 0), 30))
        let plain = min(base * pow(2, exponent), cap)
        return plain * (0.5 + min(max(unit, 0), 1))
    }
}
