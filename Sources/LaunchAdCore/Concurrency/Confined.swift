/// A value that is not Sendable, handed from one side of a boundary to the other and used by one
/// side at a time: the side that holds it. Handing it over is the only way it crosses, and each
/// use names the side it is used from, which is checked (a use from the side that gave it away
/// traps rather than racing). An embedded ad's player is made and judged by the run's thread,
/// then drawn by the application's calls.
public final class Confined<Value>: @unchecked Sendable {
    // unchecked Sendable: `value` is reached only through `take(as:)` by the side `owner` names,
    // and `owner` only under `lock`.
    /// The sides a value moves between.
    public enum Side: Sendable { case run, host }

    private let value: Value
    private let owner: Locked<Side?>

    /// `value`, held by `side`.
    public init(_ value: Value, heldBy side: Side) {
        self.value = value
        owner = Locked(side)
    }

    /// Gives the value up: the next `take` by either side gets it.
    public func release(from side: Side) {
        owner.withLock { held in
            precondition(held == side || held == nil, "a confined value given up by a side that does not hold it")
            held = nil
        }
    }

    /// The value, for `side`: it must hold it already or take it now (nobody holds it).
    public func take(as side: Side) -> Value {
        owner.withLock { held in
            precondition(held == side || held == nil, "a confined value used by a side that does not hold it")
            held = side
        }
        return value
    }
}
