import Foundation
import LaunchAdMedia

/// A decoded picture ready for the screen, yuv420p, with its time in seconds.
final class DecodedPicture: Sendable {
    let frame: Frame
    let pts: Double
    init(frame: Frame, pts: Double) { self.frame = frame; self.pts = pts }
}

/// Decoded pictures from the video decoder to the main thread: at most `capacity` (3, as ffplay),
/// so decoding never runs far ahead of the screen.
// unchecked Sendable: waits on a condition variable (NSCondition, as `Locked` cannot wait); every field is read and written under `cond`.
final class PictureQueue: @unchecked Sendable {
    private let cond = NSCondition()
    private var items: [DecodedPicture] = []
    private let capacity: Int
    private var aborted = false
    private(set) var finished = false

    init(capacity: Int = 3) { self.capacity = capacity }

    /// Waits for room; false after abort.
    func put(_ p: DecodedPicture) -> Bool {
        cond.lock(); defer { cond.unlock() }
        while items.count >= capacity && !aborted { cond.wait() }
        guard !aborted else { return false }
        items.append(p)
        return true
    }

    func finish() { cond.lock(); finished = true; cond.unlock() }
    func abort() { cond.lock(); aborted = true; cond.broadcast(); cond.unlock() }

    /// The waiting pictures' timestamps, oldest first.
    var timestamps: [Double] { cond.lock(); defer { cond.unlock() }; return items.map(\.pts) }

    /// True once the decoder is done and every picture was taken.
    var isDrained: Bool { cond.lock(); defer { cond.unlock() }; return finished && items.isEmpty }

    /// Removes `count` pictures from the head, returning the last one removed.
    func pop(_ count: Int) -> DecodedPicture? {
        cond.lock(); defer { cond.unlock() }
        let n = min(count, items.count)
        guard n > 0 else { return nil }
        let last = items[n - 1]
        items.removeFirst(n)
        cond.broadcast()
        return last
    }
}
