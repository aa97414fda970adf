import Foundation

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
private final class IndexedResults<T: Sendable>: @unchecked Sendable {  // all state guarded by `lock`
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var slots: [T?]

    init(_ count: Int) { self.count = count; slots = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ i: Int, _ value: T) { lock.lock(); slots[i] = value; lock.unlock() }

    var results: [T] { lock.lock(); defer { lock.unlock() }; return slots.map { $0! } }
}
