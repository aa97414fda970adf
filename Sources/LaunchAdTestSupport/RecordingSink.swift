import Foundation
import LaunchAdCore

/// Keeps events in memory; for tests and for callers that inspect a run afterwards.
public final class RecordingSink: EventSink, Sendable {
    private let stored = Locked<[AdEvent]>([])

    public init() {}

    public func emit(_ event: AdEvent) {
        stored.withLock { $0.append(event) }
    }

    public var events: [AdEvent] {
        stored.withLock { $0 }
    }
}

extension FrameCounter {
    /// A counter that reached `shown` presents and dropped `dropped` pictures, without sound.
    public static func counted(shown: Int, dropped: Int) -> FrameCounter {
        var f = FrameCounter()
        for _ in 0..<shown {
            f.pictureReady()
            f.presented(pictureTime: nil, audioClock: nil)
        }
        f.drop(dropped)
        return f
    }
}
