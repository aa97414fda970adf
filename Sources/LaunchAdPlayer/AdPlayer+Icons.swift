import LaunchAdCore
import LaunchAdMedia

/// VAST icons (AdChoices): decoded off the main thread, drawn while their time says, reported
/// once seen (`icon_view`), and clickable (`icon_click`, the ad goes on).
extension AdPlayer {
    /// Each icon's picture is fetched (`sideLoads.icon`) and decoded on a thread of its own,
    /// beside playback: a slow or silent icon server never holds the first frame.
    func startIcons() {
        let fetch = sideLoads.icon
        for icon in config.icons {
            var prepare: (@Sendable (_ isAborted: @escaping @Sendable () -> Bool) throws -> Void)?
            if let fetch { prepare = { isAborted in try fetch(icon, isAborted) } }
            iconJobs[icon.index] = ImageDecodeJob(
                path: icon.file, isFallback: false, network: nil, in: imageThreads, wake: wakeLoop, prepare: prepare)
        }
    }

    /// Uploads each decoded icon once the window is there; a picture that cannot be read is one `icon_error`.
    func followIcons() {
        guard let renderer else { return }
        for (index, job) in iconJobs {
            guard let result = job.outcome else { continue }
            iconJobs[index] = nil
            do { iconPictures[index] = try Texture.image(renderer, try result.get()) } catch {
                iconEvent(.error(message: "\(error)"), index)
            }
        }
    }

    /// The icons to draw now, with their places; an icon too large for the window is refused once.
    func visibleIcons(now: Int) -> [(index: Int, texture: Texture, rect: Rect)] {
        guard let t = captionClockMs(now: now) else { return [] }
        var out: [(Int, Texture, Rect)] = []
        for icon in config.icons where icon.isShowing(atMs: t) && !iconsRefused.contains(icon.index) {
            guard let texture = iconPictures[icon.index] else { continue }
            switch icon.place(image: texture.size, layout: session.layout) {
            case .success(let rect): out.append((icon.index, texture, rect))
            case .failure(let why):
                iconsRefused.insert(icon.index)
                iconEvent(.refused(message: why.message), icon.index)
            }
        }
        return out
    }

    /// Notes which icons are on screen: a change is one redraw; the first sight of each is its `icon_view`.
    func followIconsShown(_ shown: [(index: Int, texture: Texture, rect: Rect)]) {
        let indices = shown.map(\.index)
        guard indices != iconsShown else { return }
        iconsShown = indices
        dirty = true
        for i in indices where iconsViewed.insert(i).inserted { iconEvent(.view, i) }
    }

    /// A click or tap on a shown icon: its `icon_click` (and the link opened with --open-links);
    /// true when the icon took it, so it is not the ad's click.
    func iconTook(_ input: SessionInput) -> Bool {
        guard case .pointerUp(let x, let y) = input, session.phase == .showing else { return false }
        guard let hit = visibleIcons(now: ProcessClock.nowMs()).last(where: { $0.rect.contains(x: x, y: y) }) else { return false }
        let link = config.icons.first { $0.index == hit.index }?.link
        iconEvent(.click(link: link), hit.index)
        if let link, config.session.openLinks { LinkOpener.open(link, events: events) }
        return true
    }

    private func iconEvent(_ kind: IconEvent.Kind, _ index: Int) {
        let program = config.icons.first { $0.index == index }?.program
        events.emit(.icon(IconEvent(kind, index: index, program: program, shownMs: session.shownMs(now: ProcessClock.nowMs()))))
    }
}
