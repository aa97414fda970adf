import LaunchAdCore
import LaunchAdMedia

/// The caption clock and the caption on screen.
extension AdPlayer {
    /// The ad's own time for captions, in ms: the media time of the picture on screen for a
    /// video (a pause or a stall holds it, so the cue holds too), the shown time for an image.
    func captionClockMs(now: Int) -> Int? {
        guard firstFrameShown else { return nil }
        // A hostile file's timestamps may be anything: only a plausible time becomes an Int.
        if videoTexture != nil { return shownPTS.flatMap { abs($0) < 1e9 ? Checked.milliseconds($0) : nil } }
        return imageTexture != nil ? session.shownMs(now: now) : nil
    }

    /// Notes the caption that should be on screen now; a change is one redraw (and one
    /// `caption` event when a cue appears), nothing more.
    func followCaptions(now: Int) {
        let text = captionClockMs(now: now).flatMap { captions.onScreen(atMs: $0, mode: config.captionMode, muted: session.muted) }
        guard text != captionText else { return }
        captionText = text
        dirty = true
        if let text, let at = captionClockMs(now: now) {
            events.emit(.caption(text: text, atMs: at))
        }
    }
}

extension AdPlayer {
    /// The file's own captions are read beside playback once captions would show (`on`, or
    /// `auto` and muted: an ad that plays with sound costs no second read), when no caption
    /// file was given (that one wins) and the creative is a local file.
    func startCaptionRead() {
        guard !captionReadStarted, config.captionMode.shows(muted: session.muted) else { return }
        captionReadStarted = true
        guard config.captions == nil, sideLoads.captions == nil, !config.source.contains("://") else { return }
        captionJob = CaptionReadJob(path: config.source, preferred: config.captionLanguage, in: imageThreads)
    }

    /// A caption file (`sideLoads.captions`) is read beside playback from the start.
    func startCaptionFile() {
        guard let load = sideLoads.captions else { return }
        captionFileJob = CaptionFileJob(load, events: events, in: imageThreads)
    }

    /// Adds the caption file's cues once read (its reader said what it read).
    func followCaptionFile() {
        guard let job = captionFileJob, let outcome = job.outcome else { return }
        captionFileJob = nil
        if let track = outcome { captions.append(track.cues) }
    }

    /// Adds the file's captions once read, with a `captions` event (or one `captions_error`).
    func followCaptionRead() {
        followCaptionFile()
        startCaptionRead()
        guard let job = captionJob, let outcome = job.outcome else { return }
        captionJob = nil
        switch outcome {
        case .failure(let e):
            events.emit(.captionsError(CaptionsProblem(source: .embedded, file: config.source, message: "\(e)")))
        case .success(nil):
            return
        case .success(let found?):
            captions.append(found.cues)
            events.emit(
                .captions(
                    CaptionsRead(
                        source: .embedded, file: config.source, format: found.codec, cues: found.cues.count, language: found.language)))
            if found.skipped > 0 {
                events.emit(
                    .captionsError(
                        CaptionsProblem(
                            source: .embedded, file: config.source, message: found.firstProblem ?? "undecodable captions",
                            skipped: found.skipped)))
            }
        }
    }
}
