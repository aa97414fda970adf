import Foundation
import LaunchAdCore

/// Runs `body(0..<count)` on `threads` threads of their own (long, blocking work such as decoding a whole
/// creative does not belong on Dispatch's shared pool), each taking the next index when it is free.
/// The results come back in index order.
public func parallelMap<T: Sendable>(_ count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    if threads <= 1 || count <= 1 { return (0..<count).map(body) }
    let work = IndexedResults<T>(count)
    let group = DispatchGroup()
    for _ in 0..<min(threads, count) {
        group.enter()
        let t = Thread {
            while let i = work.claim() { work.store(i, body(i)) }
            group.leave()
        }
        // Decoders and filter graphs want more than a secondary thread's default stack.
        t.stackSize = 8 << 20
        t.start()
    }
    group.wait()
    return work.results
}

/// The next index to run and the results so far, under one lock.
private final class IndexedResults<T: Sendable>: Sendable {
    private let count: Int
    private let state: Locked<(next: Int, slots: [T?])>

    init(_ count: Int) { self.count = count; state = Locked((0, Array(repeating: nil, count: count))) }

    func claim() -> Int? {
        state.withLock { s in
            guard s.next < count else { return nil }
            s.next += 1
            return s.next - 1
        }
    }

    func store(_ i: Int, _ value: sending T) { state.withLock { $0.slots[i] = value } }

    var results: [T] { state.withLock { $0.slots.map { $0! } } }
}
