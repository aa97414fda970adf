/// Everything `launchad play` (and `launch`, for the ad it picks) can be told.
public struct PlayOptions: Equatable, Sendable {
    public var file: String = ""
    public var eventsPath: String?
    public var size: Size?
    public var device: DevicePreset?
    public var fullscreen = false
    public var fit: FitMode = .fit
    public var layout: LayoutMode = .fullscreen
    public var logo: String?
    public var skipStyle: SkipStyle = .text
    public var skipAfter: Double = 0
    public var showSkip = true
    public var skipLabel: String?
    public var font: String?
    public var maxDuration: Double?
    public var imageDuration: Double = 5
    public var link: String?
    /// The link holds `[ADPLAYHEAD]` to fill with the shown time at the click (a VAST ClickThrough).
    public var linkPlayhead = false
    public var openLinks = false
    public var pauseOnBlur = true
    public var transition: Transition = .fade
    public var fallback: String?
    public var wait: Double = 3
    public var controlStdin = false
    public var muted = false
    public var vast = VASTOptions()
    /// Shown-time marks for `progress` events (a VAST ad's progress tracking).
    public var progressOffsets: [VASTOffset] = []
    /// The scene turned on the output (`--rotate`); --size and --device give the output's shape.
    public var rotation: ScreenRotation = .none

    public init(file: String = "") { self.file = file }
}
