/// Everything `launchad play` (and `launch`, for the ad it picks) can be told.
public struct PlayOptions: Equatable, Sendable {
    /// The ad to play: a file path or URL (or the VAST tag with `--vast`).
    public var file: String = ""
    /// The manifest's id of the ad `launch` chose (nil for `play FILE`): what the service status names.
    public var adID: String?
    /// `--events FILE`: where JSON-lines events go; nil writes them to stdout.
    public var eventsPath: String?
    /// `--metrics FILE`: the Prometheus textfile written at the end of the run.
    public var metricsPath: String?
    /// `--size WxH`: the window size; nil uses the ad's size, scaled to fit the display.
    public var size: Size?
    /// `--device NAME`: size the window as this device's portrait screen.
    public var device: DevicePreset?
    /// `--fullscreen`: desktop fullscreen, cursor hidden.
    public var fullscreen = false
    /// `--fit`: letterbox (`fit`) or crop (`fill`) the ad to its area.
    public var fit: FitMode = .fit
    /// `--layout`: the whole window, or a band below for the logo.
    public var layout: LayoutMode = .fullscreen
    /// `--logo IMAGE`: the logo for the `logo-bottom` layout.
    public var logo: String?
    /// `--skip-style`: a "Skip 5" countdown or a progress ring.
    public var skipStyle: SkipStyle = .text
    /// `--skip-after`: seconds shown before the skip button can be used.
    public var skipAfter: Double = 0
    /// False with `--no-skip`: no skip button at all.
    public var showSkip = true
    /// `--skip-label`: the word on the skip button; nil is "Skip".
    public var skipLabel = "Skip"
    /// `--font FILE`: a TrueType font for the overlay; nil finds DejaVu Sans at run time.
    public var font: String?
    /// `--max-duration`: seconds a video ad may run at most; nil plays it to its end.
    public var maxDuration: Double?
    /// `--duration`: seconds an image ad stays.
    public var imageDuration: Double = 5
    /// `--link URL`: the http(s) click-through; a click ends the ad as `clicked`.
    public var link: String?
    /// The link holds `[ADPLAYHEAD]` to fill with the shown time at the click (a VAST ClickThrough).
    public var linkPlayhead = false
    /// `--open-links`: also open the link with xdg-open on a click.
    public var openLinks = false
    /// False with `--no-pause-on-blur`: keep playing when the window loses focus or is minimized.
    public var pauseOnBlur = true
    /// `--transition`: how the ad leaves the screen.
    public var transition: Transition = .fade
    /// `--fallback IMAGE`: shown when the video cannot play or its first frame is late.
    public var fallback: String?
    /// `--wait`: seconds to wait for the video's first frame before the fallback.
    public var wait: Double = 3
    /// How long a video's next picture may be overdue before the ad ends as stalled.
    public var stallTimeout: Double = 3
    /// `--control stdin`: read pause, resume, skip, click, mute, unmute and end lines from stdin.
    public var controlStdin = false
    /// `--mute`: start muted.
    public var muted = false
    /// The VAST options (`--vast` and its limits).
    public var vast = VASTOptions()
    /// Shown-time marks for `progress` events (a VAST ad's progress tracking).
    public var progressOffsets: [VASTOffset] = []
    /// The scene turned on the output (`--rotate`); --size and --device give the output's shape.
    public var rotation: ScreenRotation = .none
    /// A caption file (`--captions`: WebVTT, SRT or TTML; a path or URL), when to show captions,
    /// and the language to prefer among several (`--caption-lang`).
    public var captions: String?
    /// `--caption-mode`.
    public var captionMode: CaptionMode = .auto
    /// `--caption-lang`.
    public var captionLanguage: String?

    /// Defaults for playing `file`.
    public init(file: String = "") { self.file = file }
}
