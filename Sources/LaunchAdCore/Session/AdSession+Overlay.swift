/// What the overlay shows at a moment: the skip button, the fades and the zoom.
extension AdSession {
    /// What the skip button shows at `now`: hidden while waiting or with `--no-skip`, "Ad N" until `--skip-after`.
    public func skipButton(now: Int) -> SkipButtonState {
        guard config.showSkip, phase != .waiting else {
            return .hidden
        }
        let shown = shownMs(now: now)
        let progress = config.countdownMs > 0 ? min(1, Double(shown) / Double(config.countdownMs)) : 1
        if shown < config.skipAfterMs {
            let left = AdSession.ceilSeconds(config.skipAfterMs - shown)
            return SkipButtonState(
                visible: true, enabled: false,
                text: config.skipStyle == .ring ? "Ad" : "Ad \(left)", progress: progress)
        }
        let remaining = AdSession.ceilSeconds(max(0, config.countdownMs - shown))
        let text = config.skipStyle == .ring || remaining == 0 ? config.skipLabel : "\(config.skipLabel) \(remaining)"
        return SkipButtonState(visible: true, enabled: true, text: text, progress: progress)
    }

    /// 0 (black) to 1 (fully visible): the fade in after the first frame and the fade out when leaving.
    public func opacity(now: Int) -> Double {
        switch phase {
        case .waiting: return 0
        case .ended: return config.transition == .none ? 1 : 0
        case .showing:
            guard let first = firstFrameAt, config.fadeInMs > 0 else { return 1 }
            return min(1, max(0, Double(now - first) / Double(config.fadeInMs)))
        case .leaving(_, let since):
            guard config.transition != .none else { return 1 }
            // Fades out from wherever the fade in had reached when the ad began to leave.
            let fadeIn = firstFrameAt.map { min(1, max(0, Double(since - $0) / Double(max(1, config.fadeInMs)))) } ?? 1
            return fadeIn * min(1, max(0, 1 - Double(now - since) / Double(config.transition.leaveMs)))
        }
    }

    /// The ad's scale: 1, growing while the zoom transition runs.
    public func zoom(now: Int) -> Double {
        guard case .leaving(_, let since) = phase, config.transition == .zoom else { return 1 }
        return 1 + 0.25 * min(1, Double(now - since) / Double(config.transition.leaveMs))
    }
}
