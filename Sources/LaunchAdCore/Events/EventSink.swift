import Foundation

/// Where events go. Implementations must be safe to call from any thread.
public protocol EventSink: AnyObject, Sendable {
    func emit(_ event: AdEvent)
}
