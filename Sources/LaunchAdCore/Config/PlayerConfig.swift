/// The one configuration the player receives, built once from `play`'s options (which `launch`
/// fills from the manifest): every duration in milliseconds, every decision the session makes
/// in `session`. Drawing, input and the engine read only this.
public struct PlayerConfig: Equatable, Sendable {
    /// The creative: a file or URL.
    public var source: String
    /// The manifest's id of the ad, when `launch` chose it.
    public var adID: String?
    /// Image shown when the video cannot play or its first frame is late (`--fallback`).
    public var fallback: String?
    /// Logo image for the `logo-bottom` layout.
    public var logo: String?
    /// The window: a requested size, a device's portrait screen, or the whole display.
    public var size: Size?
    /// A portrait device screen to size the window as (`--device`).
    public var device: DevicePreset?
    /// Desktop fullscreen with the cursor hidden (kiosks).
    public var fullscreen: Bool
    /// The scene turned clockwise on the output; size and device are the output's shape.
    public var rotation: ScreenRotation
    /// Letterbox (`fit`) or crop (`fill`) the ad to its area.
    public var fit: FitMode
    /// Whether the ad fills the window or leaves a band below for the logo.
    public var layout: LayoutMode
    /// A TrueType font asked for by name; nil finds DejaVu at run time.
    public var font: String?
    /// How long a still image (the ad or the fallback) stays.
    public var imageDurationMs: Int
    /// Read control commands (pause, skip, mute, end, ...) as lines from stdin.
    public var controlStdin: Bool
    /// Skip button, link, transition, first-frame wait, mute: the session's inputs.
    public var session: SessionConfig
    /// Captions read before the ad starts (a sidecar, a VAST caption file).
    public var captions: CaptionTrack?
    /// When captions show (`--caption-mode`).
    public var captionMode: CaptionMode
    /// VAST icons (AdChoices), their pictures already fetched.
    public var icons: [OverlayIcon] = []
    /// The caption language asked for, among a file's tracks or a VAST ad's files.
    public var captionLanguage: String?

    /// The player's configuration for `o`, seconds turned into milliseconds; a video's duration is not known yet.
    public init(_ o: PlayOptions) {
        source = o.file
        adID = o.adID
        fallback = o.fallback
        logo = o.logo
        size = o.size
        device = o.device
        fullscreen = o.fullscreen
        rotation = o.rotation
        fit = o.fit
        layout = o.layout
        font = o.font
        imageDurationMs = Int((o.imageDuration * 1000).rounded())
        controlStdin = o.controlStdin
        session = SessionConfig.video(durationMs: nil, options: o)
        captionMode = o.captionMode
        captionLanguage = o.captionLanguage
    }
}
