/// Portrait phone and tablet screens for previewing, in their native pixels.
public enum DevicePreset: String, CaseIterable, Sendable {
    case iphoneSE = "iphone-se"
    case iphone8 = "iphone-8"
    case iphone8Plus = "iphone-8-plus"
    case iphoneX = "iphone-x"
    case ipad
    case androidHD = "android-hd"
    case androidFHD = "android-fhd"

    /// The device's portrait screen size in native pixels.
    public var screen: Size {
        switch self {
        case .iphoneSE: return Size(width: 640, height: 1136)
        case .iphone8: return Size(width: 750, height: 1334)
        case .iphone8Plus: return Size(width: 1242, height: 2208)
        case .iphoneX: return Size(width: 1125, height: 2436)
        case .ipad: return Size(width: 1536, height: 2048)
        case .androidHD: return Size(width: 720, height: 1280)
        case .androidFHD: return Size(width: 1080, height: 1920)
        }
    }
}

/// The window size for a run: for fullscreen, the whole display (`fullscreenDisplay`: its
/// final size; X11 creates a window at the size asked, and only a window manager makes it
/// fullscreen, so without one a window created smaller stays smaller); `--size` as given; the
/// ad's own size when it fits the display's usable area, pixel for pixel as ffplay and mpv open
/// it (no resampling: sharper, and no per-frame scaling cost); else the ad or the device screen
/// scaled down to 90 % of the display, which leaves room for panels and title bars.
public func windowSize(requested: Size?, device: DevicePreset?, content: Size?, display: Size?, fullscreenDisplay: Size? = nil) -> Size {
    if let fullscreenDisplay, !fullscreenDisplay.isEmpty { return fullscreenDisplay }
    if let requested { return requested }
    let wanted = device?.screen ?? content ?? Size(width: 720, height: 1280)
    guard let display, !display.isEmpty else { return wanted }
    if device == nil, content != nil, wanted.width <= display.width, wanted.height <= display.height { return wanted }
    let usable = Size(width: display.width * 9 / 10, height: display.height * 9 / 10)
    return wanted.scaledDown(toFit: usable)
}
