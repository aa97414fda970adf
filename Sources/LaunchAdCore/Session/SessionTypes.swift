/// How the skip button looks (`--skip-style`): a "Skip 5" countdown text, or a progress ring around the label.
public enum SkipStyle: String, CaseIterable, Sendable {
    case text, ring
}

/// How the ad leaves the screen (`--transition`): fading out, zooming while it fades, or at once.
public enum Transition: String, CaseIterable, Sendable {
    case fade, zoom, none

    /// How long the ad takes to leave, in ms.
    public var leaveMs: Int { self == .none ? 0 : 400 }
}

/// Why playback is paused. Playback runs only when no reason holds.
public enum PauseReason: String, Sendable, CaseIterable {
    case focusLost = "focus_lost"
    case minimized
    case hidden
    case host
    case user

    /// The window-state reasons that `--no-pause-on-blur` ignores.
    public var isWindowState: Bool { self == .focusLost || self == .minimized || self == .hidden }

    /// What the resume event says when this reason clears.
    public var clearedBy: String {
        switch self {
        case .focusLost: return "focus_gained"
        case .minimized: return "restored"
        case .hidden: return "shown"
        case .host: return "host"
        case .user: return "user"
        }
    }
}

/// A line on the control channel (`--control stdin`), as a host process sends it.
public enum ControlCommand: String, Sendable, CaseIterable {
    case pause, resume, skip, click, mute, unmute, end

    /// Parses one line; blank lines and surrounding spaces are ignored, case is not.
    public static func parse(_ line: String) -> ControlCommand? {
        ControlCommand(rawValue: line.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
    }
}

/// A key the session acts on: Escape skips, m toggles mute, space toggles pause.
public enum Key: Sendable {
    case escape, mute, pauseToggle
}

/// Inputs to the session: what the viewer, the window, the host and the media did.
public enum SessionInput: Sendable {
    /// The first picture of the creative is on screen.
    case firstFrame
    case pause(PauseReason)
    case resume(PauseReason)
    /// Mouse button up or finger up at window coordinates.
    case pointerUp(x: Double, y: Double)
    case key(Key)
    case control(ControlCommand)
    /// The viewer closed the window: the ad ends as skipped even while skipping is disabled.
    case closeRequested
    /// Both streams have drained.
    case endOfStream
    /// The creative cannot be shown (cannot open, cannot decode); `message` is one line.
    case adUnavailable(code: FailureCode, message: String)
    /// The window or the process failed in a way that ends the run.
    case failed(code: FailureCode, message: String)
    /// The link opener (`--open-links`) is done: nil when it started the browser, else why not
    /// (`xdg-open exited with status 4`).
    case linkOpened(failure: String?)
}

/// What the player must carry out.
public enum SessionAction: Equatable, Sendable {
    case setPaused(Bool)
    case setMuted(Bool)
    /// Show the fallback image instead of the video.
    case showFallback
    case openLink(String)
    /// The ad is over: close the window and exit with this outcome.
    case finish(Outcome)
}

/// What the skip button shows at one moment.
public struct SkipButtonState: Equatable, Sendable {
    /// Whether the button is drawn at all.
    public var visible: Bool
    /// Whether a press skips the ad; false while `--skip-after` has not passed.
    public var enabled: Bool
    /// "Skip 5", "Ad 3", or the label alone for the ring style.
    public var text: String
    /// 0...1 of the ad shown (ring style).
    public var progress: Double

    /// No button at all (before the first frame, with --no-skip, while handing off to the app).
    public static let hidden = SkipButtonState(visible: false, enabled: false, text: "", progress: 0)
}

/// How one ad's session ended: what its owner reports (`end`, `ad_end`) and decides on (the
/// next VAST media file, the frequency caps, a first launch's late creative).
public struct PlayResult: Equatable, Sendable {
    /// The `end` event's payload (outcome, shown time, frame counters).
    public var end: RunEnd
    /// The last `error` the session reported, or the failure it gave way on.
    public var error: PlayError?
    /// When (process ms) the ad itself, not its fallback, reached the screen.
    public var adShownAtMs: Int?
    /// The window was closed.
    public var closed: Bool
    /// A VAST media file that did not open gave way to the next: nothing was reported.
    public var gaveWay: Bool

    /// The result, field by field.
    public init(end: RunEnd, error: PlayError?, adShownAtMs: Int?, closed: Bool, gaveWay: Bool) {
        self.end = end; self.error = error; self.adShownAtMs = adShownAtMs; self.closed = closed; self.gaveWay = gaveWay
    }

    /// The outcome.
    public var outcome: Outcome { end.outcome }
}
