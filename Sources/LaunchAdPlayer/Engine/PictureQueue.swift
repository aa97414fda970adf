import Foundation
import LaunchAdCore
import LaunchAdMedia

/// A decoded picture ready for the screen, yuv420p, with its time in seconds.
final class DecodedPicture: Sendable {
    let frame: Frame
    let pts: Double
    init(frame: Frame, pts: Double) { self.frame = frame; self.pts = pts }
}

/// Decoded pictures from the video decoder to the main thread: at most `capacity` (3, as ffplay),
/// so decoding never runs far ahead of the screen.
final class PictureQueue: Sendable {
    private struct State {
        var items: [DecodedPicture] = []
        var aborted = false
        var finished = false
    }
    private let state = Locked(State())
    private let capacity: Int

    init(capacity: Int = 3) { self.capacity = capacity }

    /// Waits for room; false after abort.
    func put(_ p: DecodedPicture) -> Bool {
        state.wait(
            until: { $0.items.count < capacity || $0.aborted },
            then: { s, _ in
                guard !s.aborted else { return false }
                s.items.append(p)
                return true
            }) && picturesChanged()
    }

    /// Wakes whoever waits on the pictures (`wait(until:deadline:)`); true.
    private func picturesChanged() -> Bool {
        state.wakeAll()
        return true
    }

    func finish() { state.change { $0.finished = true } }

    /// Waits until `ready` holds for the waiting pictures' timestamps and whether the decoder is
    /// done, or `deadline` passes; whether it holds.
    func wait(until ready: @escaping ([Double], Bool) -> Bool, deadline: Date) -> Bool {
        state.wait(until: { ready($0.items.map(\.pts), $0.finished) }, deadline: deadline)
    }
    func abort() { state.change { $0.aborted = true } }

    /// Whether the decoder said it is done.
    var finished: Bool { state.withLock { $0.finished } }

    /// The waiting pictures' timestamps, oldest first.
    var timestamps: [Double] { state.withLock { $0.items.map(\.pts) } }

    /// True once the decoder is done and every picture was taken.
    var isDrained: Bool { state.withLock { $0.finished && $0.items.isEmpty } }

    /// Removes `count` pictures from the head, returning the last one removed.
    func pop(_ count: Int) -> DecodedPicture? {
        state.change { s -> DecodedPicture? in
            let n = min(count, s.items.count)
            guard n > 0 else { return nil }
            let last = s.items[n - 1]
            s.items.removeFirst(n)
            return last
        }
    }
}
