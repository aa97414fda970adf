/// A VAST icon ready to draw: its picture (a local file the delivery layer fetched), when it
/// shows (the ad's time, as captions), where, and its click-through.
public struct OverlayIcon: Equatable, Sendable {
    /// Its position among the Linear's `<Icon>`s (the `index` of `icon_view` and `icon_click`).
    public var index: Int
    /// Its `program` attribute (`AdChoices`), if any.
    public var program: String?
    /// The local file its picture was fetched to.
    public var file: String
    /// The size asked for (0: the picture's own).
    public var width: Int
    /// The height asked for (0: the picture's own).
    public var height: Int
    /// `xPosition`.
    public var x: IconPosition
    /// `yPosition`.
    public var y: IconPosition
    /// When it appears, in ms of the ad's time.
    public var startMs: Int
    /// nil: until the ad ends.
    public var endMs: Int?
    /// An http(s) IconClickThrough.
    public var link: String?

    /// From a VAST icon: `offset` and `duration` (clock or per cent of the ad's length).
    public init(_ icon: VASTIcon, index: Int, file: String, adDurationMs: Int?) {
        self.index = index
        program = icon.program
        self.file = file
        width = icon.width
        height = icon.height
        x = icon.x
        y = icon.y
        startMs = icon.offset?.milliseconds(of: adDurationMs) ?? 0
        endMs = icon.duration?.milliseconds(of: adDurationMs).map { startMs + $0 }
        link = icon.clickThrough.flatMap { Link.isAllowed($0) ? $0 : nil }
    }

    /// Whether it is on screen at `ms` of the ad's time.
    public func isShowing(atMs ms: Int) -> Bool { ms >= startMs && endMs.map { ms < $0 } ?? true }

    /// Where the icon goes in the overlay area (the letterboxed picture, else the ad's area) for
    /// a picture of `image` size, or why it is refused: larger than a quarter of the window (an
    /// icon is a small mark, not a second ad), or than the area it would sit on.
    public func place(image: Size, layout: AdLayout) -> Result<Rect, IconRefusal> {
        let size = width > 0 && height > 0 ? Size(width: width, height: height) : image
        let window = layout.window
        guard !size.isEmpty, size.width * size.height * 4 <= window.width * window.height, size.width <= window.width,
            size.height <= window.height
        else {
            return .failure(IconRefusal("the icon is \(size), larger than a quarter of the \(window) window"))
        }
        let area = layout.overlayArea
        guard size.width <= area.width, size.height <= area.height else {
            return .failure(IconRefusal("the icon is \(size), larger than the \(area.size) picture it would sit on"))
        }
        func along(_ p: IconPosition, start: Int, length: Int, size: Int) -> Int {
            switch p {
            case .start: return start
            case .end: return start + length - size
            case .pixels(let v): return start + min(v, max(0, length - size))
            }
        }
        return .success(
            Rect(
                x: along(x, start: area.x, length: area.width, size: size.width),
                y: along(y, start: area.y, length: area.height, size: size.height), width: size.width, height: size.height))
    }
}

/// Why an icon is not drawn (too large for the window).
public struct IconRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why, in one line.
    public let message: String
    /// A refusal saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
