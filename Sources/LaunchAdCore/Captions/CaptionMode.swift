/// When captions are drawn (`--caption-mode`): `auto` while the sound is off (launch and kiosk
/// ads mostly play muted), `on` always, `off` never.
public enum CaptionMode: String, CaseIterable, Sendable {
    case auto, on, off

    /// Whether captions show, given the session's mute state (the `m` key and `mute` control
    /// switch it, so in `auto` they switch the captions too).
    public func shows(muted: Bool) -> Bool {
        switch self {
        case .auto: return muted
        case .on: return true
        case .off: return false
        }
    }
}

extension CaptionTrack {
    /// The caption a viewer sees at `ms` of the ad's time: the showing cues' text when the mode
    /// (and, in `auto`, the mute state) lets captions show; nil otherwise.
    public func onScreen(atMs ms: Int, mode: CaptionMode, muted: Bool) -> String? {
        mode.shows(muted: muted) ? text(atMs: ms) : nil
    }
}
