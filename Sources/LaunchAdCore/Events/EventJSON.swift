/// The one encoder of events: each case's `event` name and its fields, in the order the lines
/// have always had (a golden test holds every kind's line).
extension LaunchEvent {
    /// The version of the event lines' schema (docs/events.schema.json): raised when a field
    /// changes meaning or goes away, never for an added event or field.
    public static let schemaVersion = 1

    /// The `event` key.
    public var name: String {
        switch self {
        case .start: return "start"
        case .window: return "window"
        case .firstFrame: return "first_frame"
        case .skipAvailable: return "skip_available"
        case .quartile: return "quartile"
        case .progress: return "progress"
        case .pause: return "pause"
        case .resume: return "resume"
        case .mute: return "mute"
        case .unmute: return "unmute"
        case .skip: return "skip"
        case .click: return "click"
        case .complete: return "complete"
        case .fallback: return "fallback"
        case .waitExpired: return "wait_expired"
        case .caption: return "caption"
        case .captions: return "captions"
        case .captionsError: return "captions_error"
        case .icon(let e): return e.name
        case .error: return "error"
        case .audioUnavailable: return "audio_unavailable"
        case .fontMissing: return "font_missing"
        case .logoUnavailable: return "logo_unavailable"
        case .readError: return "read_error"
        case .renderError: return "render_error"
        case .linkOpenFailed: return "link_open_failed"
        case .controlError: return "control_error"
        case .end: return "end"
        case .ready: return "ready"
        case .vast: return "vast"
        case .vastAd: return "vast_ad"
        case .mediaFallback: return "media_fallback"
        case .adEnd: return "ad_end"
        case .cacheHit: return "cache_hit"
        case .cacheMiss: return "cache_miss"
        case .stream: return "stream"
        case .handoff: return "handoff"
        case .appNotStarted: return "app_not_started"
        case .prefetchStart: return "prefetch_start"
        case .prefetchDone: return "prefetch_done"
        case .rejected: return "rejected"
        case .download: return "download"
        case .evicted: return "evicted"
        case .notModified: return "not_modified"
        case .manifestRejected: return "manifest_rejected"
        case .outboxError: return "outbox_error"
        case .outboxUnavailable: return "outbox_unavailable"
        case .reportRefused: return "report_refused"
        case .metricsUnavailable: return "metrics_unavailable"
        }
    }

    /// The fields after `event` and `t_ms`, in order.
    public var fields: [(String, JSONValue)] {
        switch self {
        case .start(let s):
            return [
                ("file", .string(s.file)), ("kind", .string(s.kind.rawValue)), ("width", .int(s.width)), ("height", .int(s.height)),
                ("duration", s.duration.map { .double($0) } ?? .null), ("has_audio", .bool(s.hasAudio))
            ]
        case .window(let w):
            return [
                ("width", .int(w.width)), ("height", .int(w.height)), ("fullscreen", .bool(w.fullscreen)),
                ("video_driver", .string(w.videoDriver)), ("renderer", .string(w.renderer)), ("rotate", .int(w.rotate))
            ]
        case .firstFrame(let fallback): return [("fallback", .bool(fallback))]
        case .skipAvailable(let ms): return [("shown_ms", .int(ms))]
        case .quartile(let q): return [("quartile", .int(q))]
        case .progress(let mark, let ms): return [("mark", .string(mark)), ("shown_ms", .int(ms))]
        case .pause(let reason, let ms): return [("reason", .string(reason.rawValue)), ("shown_ms", .int(ms))]
        case .resume(let reason, let ms): return [("reason", .string(reason.clearedBy)), ("shown_ms", .int(ms))]
        case .mute, .unmute: return []
        case .skip(let via, let ms): return [("via", .string(via.rawValue)), ("shown_ms", .int(ms))]
        case .click(let link, let ms): return [("link", .string(link)), ("shown_ms", .int(ms))]
        case .complete(let ms, let frames): return [("shown_ms", .int(ms))] + (frames?.fields ?? [])
        case .fallback(let reason): return [("reason", .string(reason.text))]
        case .waitExpired(let ms): return [("waited_ms", .int(ms))]
        case .caption(let text, let at): return [("text", .string(text)), ("at_ms", .int(at))]
        case .captions(let c): return c.fields
        case .captionsError(let c): return c.fields
        case .icon(let e): return e.fields
        case .error(let e): return e.fields
        case .audioUnavailable(let m), .fontMissing(let m), .logoUnavailable(let m), .readError(let m), .renderError(let m):
            return [("message", .string(m))]
        case .linkOpenFailed(let link, let m): return [("link", .string(link)), ("message", .string(m))]
        case .controlError(let line, let m): return [("line", .string(line)), ("message", .string(m))]
        case .end(let e): return e.fields
        case .ready: return []
        case .vast, .vastAd, .mediaFallback, .adEnd, .cacheHit, .cacheMiss, .stream, .handoff, .appNotStarted, .prefetchStart,
            .prefetchDone, .rejected,
            .download, .evicted, .notModified, .manifestRejected, .outboxError, .outboxUnavailable, .reportRefused, .metricsUnavailable:
            return deliveryFields
        }
    }

    private var deliveryFields: [(String, JSONValue)] {
        switch self {
        case .vast(let v):
            return [("version", .string(v.version)), ("ads", .int(v.ads)), ("pod", .int(v.pod)), ("buffet", .int(v.buffet))]
        case .vastAd(let a): return a.fields
        case .mediaFallback(let media, let code, let message):
            return [("media", .string(media)), ("code", .string(code.rawValue)), ("message", message.map { .string($0) } ?? .null)]
        case .adEnd(let id, let sequence, let end):
            return [("ad_id", .optional(id))] + (sequence.map { [("sequence", .int($0))] } ?? []) + end.fields
        case .cacheHit(let id, let sha, let file): return [("id", .string(id)), ("sha256", .string(sha)), ("file", .string(file))]
        case .cacheMiss(let reason): return [("reason", .string(reason.rawValue))]
        case .stream(let id, let url): return [("id", .string(id)), ("url", .string(url))]
        case .handoff(let via, let pid, let ms): return [("via", .string(via.rawValue)), ("app_pid", .int(pid)), ("waited_ms", .int(ms))]
        case .prefetchStart(let m): return [("manifest", .string(m))]
        case .prefetchDone(let p):
            return [
                ("ok", .bool(p.ok)), ("downloads", .int(p.downloads)), ("bytes", .int(p.bytes)), ("rejected", .int(p.rejected)),
                ("failed", .int(p.failed)), ("evicted", .int(p.evicted)), ("cached_bytes", .int(p.cachedBytes)), ("ms", .int(p.ms))
            ]
        case .rejected(let id, let reason, let field):
            return [("id", .string(id)), ("reason", .string(reason))] + (field.map { [("field", .string($0))] } ?? [])
        case .download(let d):
            return [("id", .string(d.id)), ("bytes", .int(d.bytes))] + (d.ms.map { [("ms", .int($0))] } ?? [])
                + [("sha256", .string(d.sha256))] + (d.vast ? [("vast", .bool(true))] : [])
        case .evicted(let id, let sha, let bytes, let reason):
            return [("id", .string(id)), ("sha256", .string(sha)), ("bytes", .int(bytes)), ("reason", .string(reason))]
        case .notModified(let id, let url): return [("id", .string(id)), ("url", .string(url))]
        case .manifestRejected(let refusal, let manifest):
            return [("reason", .string(refusal.reason.rawValue)), ("manifest", .string(manifest)), ("message", .string(refusal.message))]
        case .appNotStarted(let app, let message): return [("app", .string(app)), ("message", .string(message))]
        case .outboxError(let r), .outboxUnavailable(let r), .reportRefused(let r), .metricsUnavailable(let r):
            return [("reason", .string(r))]
        // The player's events, encoded by `fields` itself: listed, not defaulted, so that a new
        // event cannot compile without a line here or there.
        case .start, .window, .firstFrame, .skipAvailable, .quartile, .progress, .pause, .resume, .mute, .unmute, .skip, .click,
            .complete, .fallback, .waitExpired, .caption, .captions, .captionsError, .icon, .error, .audioUnavailable, .fontMissing,
            .logoUnavailable, .readError, .renderError, .linkOpenFailed, .controlError, .end, .ready:
            return []
        }
    }
}

extension JSONValue {
    /// A string, or null.
    static func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
}

extension PlayError {
    var fields: [(String, JSONValue)] {
        // An error of the VAST layer names its VAST code second; a player error's VAST code, added
        // by a VAST run, comes last.
        let vastFirst: Bool
        switch code {
        case .vast, .failure(.firstFrameTimeout): vastFirst = vastError != nil
        default: vastFirst = false
        }
        var out: [(String, JSONValue)] = [("code", .string(code.text))]
        if vastFirst, let v = vastError { out.append(("vast_error", .int(v))) }
        out.append(("message", .string(message)))
        switch detail {
        case .none: break
        case .truncated(let shown, let declared): out += [("shown_ms", .int(shown)), ("declared_ms", .int(declared))]
        case .stalled(let shown, let stalled, let frames):
            out += [("shown_ms", .int(shown)), ("stalled_ms", .int(stalled))] + (frames?.fields ?? [])
        }
        if let adID { out.append(("ad_id", .string(adID))) }
        if !vastFirst, let v = vastError { out.append(("vast_error", .int(v))) }
        return out
    }
}

extension RunEnd {
    var fields: [(String, JSONValue)] {
        var out: [(String, JSONValue)] = [("outcome", .string(outcome.rawValue))]
        if let shownMs { out.append(("shown_ms", .int(shownMs))) }
        out += frames?.fields ?? []
        if let adsPlayed { out.append(("ads_played", .int(adsPlayed))) }
        if let reason { out.append(("reason", .string(reason.rawValue))) }
        return out
    }
}

extension CaptionsRead {
    var fields: [(String, JSONValue)] {
        let about: [(String, JSONValue)] = [("source", .string(source.rawValue)), ("file", .string(file))]
        // `never_shown` follows `cues`, only when there are some.
        let read: [(String, JSONValue)] =
            [("format", .string(format)), ("cues", .int(cues))] + (neverShown > 0 ? [("never_shown", .int(neverShown))] : [])
        // A file's own track names its language (or null) last; a caption file given for a
        // language names it before what was read.
        if source == .embedded { return about + read + [("language", .optional(language))] }
        return about + (language.map { [("language", .string($0))] } ?? []) + read
    }
}

extension CaptionsProblem {
    var fields: [(String, JSONValue)] {
        [("source", .string(source.rawValue)), ("file", .string(file))] + (language.map { [("language", .string($0))] } ?? [])
            + [("message", .string(message))] + (skipped.map { [("skipped", .int($0))] } ?? [])
    }
}

extension IconEvent {
    var name: String {
        switch kind {
        case .view: return "icon_view"
        case .click: return "icon_click"
        case .refused: return "icon_refused"
        case .error: return "icon_error"
        }
    }

    var fields: [(String, JSONValue)] {
        var out: [(String, JSONValue)] = [("index", .int(index)), ("program", .optional(program))]
        if let shownMs { out.append(("shown_ms", .int(shownMs))) }
        switch kind {
        case .view: break
        case .click(let link): out.append(("link", .optional(link)))
        case .refused(let m), .error(let m): out.append(("message", .string(m)))
        }
        return out
    }
}

extension VASTAdChosen {
    var fields: [(String, JSONValue)] {
        let skipped = iconsSkipped.map {
            JSONValue.object([("index", .int($0.index)), ("program", .optional($0.program)), ("reason", .string($0.reason))])
        }
        var out: [(String, JSONValue)] = [
            ("ad_id", .optional(adID)), ("sequence", sequence.map { .int($0) } ?? .null), ("ad_system", .optional(adSystem)),
            ("wrappers", .int(wrappers)), ("media", .string(media)), ("reason", .string(reason)),
            ("icons", .int(icons)), ("icons_skipped", .array(skipped))
        ]
        let dropped = urisDropped.values.reduce(0, +)
        if dropped > 0 {
            out.append(("uris_dropped", .int(dropped)))
            out.append(("uris_dropped_by_event", .object(urisDropped.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })))
        }
        return out
    }
}
