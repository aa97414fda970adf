/// When the overlay next changes by itself, for a loop that sleeps until then (an application's
/// GL loop, which draws a whole frame at each wake).
extension AdSession {
    /// Milliseconds until the skip button's label next changes ("Ad 3" to "Ad 2", "Ad 1" to
    /// "Skip 5", "Skip 5" to "Skip 4", the last number to the label alone), from 1 to 1000; nil
    /// when it will not change by itself (no button, no countdown left, paused, not showing).
    public func msUntilSkipLabelChanges(now: Int) -> Int? {
        guard config.showSkip, phase == .showing, !isPaused else { return nil }
        let shown = shownMs(now: now)
        // A label counting whole seconds up from `left` ms changes when `left` reaches a whole second.
        func untilWholeSecond(_ left: Int) -> Int { left % 1000 == 0 ? 1000 : left % 1000 }
        if shown < config.skipAfterMs { return untilWholeSecond(config.skipAfterMs - shown) }
        let left = config.countdownMs - shown
        return left > 0 ? untilWholeSecond(left) : nil
    }
}
