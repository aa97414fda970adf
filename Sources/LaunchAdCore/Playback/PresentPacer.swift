/// Decides whether the main loop draws and presents: only when something the viewer can see
/// changed. A new picture, a window change, a pause or a new countdown text present at once; the
/// continuous changes (a fade step, the zoom, the ring's progress) at most once per
/// `stepMs` (the video's frame interval), so a 10 ms loop does not redraw a full frame 100
/// times a second for an overlay that did not move.
public struct PresentPacer: Sendable {
    /// The least time between two presents made for a continuous change alone.
    public var stepMs: Int
    private var lastPresentMs: Int?
    private var lastSkip: SkipButtonState?

    /// A pacer presenting continuous changes at most every `stepMs` (at least 1) ms.
    public init(stepMs: Int) { self.stepMs = max(1, stepMs) }

    /// The step for a video of `frameDuration` seconds a frame (16 to 50 ms; 33 ms for an image).
    public static func stepMs(frameDuration: Double?) -> Int {
        guard let d = frameDuration, d > 0 else { return 33 }
        return Checked.int((d * 1000).rounded(), clampedTo: 16...50)
    }

    /// Whether this turn of the loop presents.
    /// - Parameters:
    ///   - now: the loop's time, in ms.
    ///   - changed: a new picture, a window event, a pause or resume, a new layout.
    ///   - skip: the skip button as it reads now (a new label needs a present).
    ///   - style: how the button counts down (the ring moves between labels).
    ///   - animating: the opacity or the zoom is moving.
    public func shouldPresent(now: Int, changed: Bool, skip: SkipButtonState, style: SkipStyle, animating: Bool) -> Bool {
        if changed { return true }
        let shown = PresentPacer.visible(skip, style: style)
        guard let last = lastSkip, let at = lastPresentMs else { return true }
        if !last.samePicture(as: shown) { return true }
        let stepDue = now - at >= stepMs
        if animating && stepDue { return true }
        return stepDue && shown.progress != last.progress
    }

    /// Records a present.
    public mutating func presented(now: Int, skip: SkipButtonState, style: SkipStyle) {
        lastPresentMs = now
        lastSkip = PresentPacer.visible(skip, style: style)
    }

    /// What of the button is drawn: the text style (and a hidden button) has no progress to show.
    static func visible(_ skip: SkipButtonState, style: SkipStyle) -> SkipButtonState {
        var s = skip
        if style == .text || !s.visible { s.progress = 0 }
        return s
    }
}

extension SkipButtonState {
    /// Equal apart from the ring's progress.
    func samePicture(as other: SkipButtonState) -> Bool {
        visible == other.visible && enabled == other.enabled && text == other.text
    }
}
