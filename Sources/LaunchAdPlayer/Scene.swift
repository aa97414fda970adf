import LaunchAdCore

/// One frame as a viewer sees it: the ad placed in its area (fit or fill, turned), the logo band,
/// the skip button, captions and icons on the picture, the fade; every place from `layout`. The player draws every frame through this, and `launchad preview`
/// draws its device panels through it too, so a preview is what the player would show.
struct Scene {
    /// Where everything goes, the picture included (made for `content`'s size and the fit mode).
    var layout: AdLayout
    /// The picture's displayed size and the turn it needs; nil before there is one.
    var content: (size: Size, rotation: Int)?
    var picture: Texture?
    /// The part of `picture` to draw (nil: all of it).
    var pictureSource: Rect?
    var zoom: Double = 1
    var logo: Texture?
    var skip: SkipButtonState
    var skipStyle: SkipStyle
    var opacity: Double = 1
    /// The caption on screen (drawn under the skip button, which it never reaches).
    var caption: String?
    /// VAST icons on screen, each with its place.
    var icons: [(Texture, Rect)] = []
    /// Whether drawing starts with the output cleared black (a GL output's overlay starts
    /// transparent instead, over the picture its drawer draws).
    var clearsToBlack = true

    /// Where the picture shows, turned; nil before there is one.
    private var shownRect: Rect? { layout.picture?.scaled(by: zoom) }

    /// Where the picture is copied to, before SDL turns it; nil before there is one.
    var pictureDestination: Rect? {
        guard let (_, rotation) = content, let shown = shownRect else { return nil }
        // SDL turns about the destination's centre: give it the unturned shape there.
        return rotation % 180 == 0
            ? shown
            : Rect(x: shown.midX - shown.height / 2, y: shown.midY - shown.width / 2, width: shown.height, height: shown.width)
    }

    /// Whether an opaque picture covers the whole window, so clearing it first is wasted: at
    /// 1080p on the software renderer a clear is a full-frame fill every video frame.
    /// Only for an unturned picture on an unturned screen: a turned copy goes through SDL's
    /// rotation code, whose edges are not promised to the pixel.
    func pictureCoversWindow(screen: ScreenRotation) -> Bool {
        guard content?.rotation == 0, screen == .none, let picture, picture.isOpaque, let shown = shownRect else { return false }
        let window = Rect(size: layout.window)
        return layout.adArea == window && shown.x <= 0 && shown.y <= 0 && shown.maxX >= window.maxX && shown.maxY >= window.maxY
    }

    func draw(on renderer: Renderer, skipView: SkipButtonView?, captionView: CaptionView? = nil) {
        if clearsToBlack && !pictureCoversWindow(screen: renderer.rotation) { renderer.clear() }
        if let rotation = content?.rotation, let dst = pictureDestination, let texture = picture {
            renderer.clip(to: layout.adArea)
            renderer.copy(texture, source: pictureSource, destination: dst, rotation: rotation)
            renderer.clip(to: nil)
        }
        if let logo, let placement = layout.logoPlacement(logo: logo.size) {
            renderer.fill(layout.logoBand!, r: 255, g: 255, b: 255, a: 255)
            renderer.copy(logo, destination: placement.destination)
        }
        if let caption { captionView?.draw(caption, layout: layout) }
        for (icon, rect) in icons { renderer.copy(icon, destination: rect) }
        skipView?.draw(skip, in: layout.skipButton, style: skipStyle)
        if opacity < 1 {
            renderer.fill(Rect(size: layout.window), r: 0, g: 0, b: 0, a: UInt8(((1 - opacity) * 255).rounded()))
        }
    }
}
