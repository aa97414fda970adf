import LaunchAdCore
import XCTest

/// Every event kind's JSON line, byte for byte as the lines have always been written (field
/// order included): scripts, collectors and the docs read these. A change here is a change of
/// the event schema (`LaunchEvent.schemaVersion`, docs/events.schema.json).
final class EventGoldenTests: XCTestCase {
    private func line(_ e: LaunchEvent, _ t: Int = 7) -> String { AdEvent(e, tMs: t).jsonLine() }

    private var frames: FrameCounter {
        var f = FrameCounter()
        f.pictureReady()
        f.presented(pictureTime: 0.5, audioClock: 0.52)
        f.drop(2)
        return f
    }

    func testTheAdOnScreen() {
        let cases: [(LaunchEvent, String)] = [
            (
                .start(CreativeStart(file: "ad.mp4", kind: .video, width: 1280, height: 720, duration: 5.5, hasAudio: true)),
                #"{"event":"start","t_ms":7,"file":"ad.mp4","kind":"video","width":1280,"height":720,"duration":5.5,"has_audio":true}"#
            ),
            (
                .start(CreativeStart(file: "a.png", kind: .image, width: 10, height: 20, duration: nil, hasAudio: false)),
                #"{"event":"start","t_ms":7,"file":"a.png","kind":"image","width":10,"height":20,"duration":null,"has_audio":false}"#
            ),
            (
                .window(WindowOpened(width: 1280, height: 720, fullscreen: false, videoDriver: "x11", renderer: "software", rotate: 90)),
                #"{"event":"window","t_ms":7,"width":1280,"height":720,"fullscreen":false,"video_driver":"x11","renderer":"software","rotate":90}"#
            ),
            (.firstFrame(fallback: false), #"{"event":"first_frame","t_ms":7,"fallback":false}"#),
            (.skipAvailable(shownMs: 2000), #"{"event":"skip_available","t_ms":7,"shown_ms":2000}"#),
            (.quartile(25), #"{"event":"quartile","t_ms":7,"quartile":25}"#),
            (.progress(mark: "10%", shownMs: 500), #"{"event":"progress","t_ms":7,"mark":"10%","shown_ms":500}"#),
            (.pause(reason: .focusLost, shownMs: 900), #"{"event":"pause","t_ms":7,"reason":"focus_lost","shown_ms":900}"#),
            (.resume(reason: .focusLost, shownMs: 900), #"{"event":"resume","t_ms":7,"reason":"focus_gained","shown_ms":900}"#),
            (.resume(reason: .minimized, shownMs: 1), #"{"event":"resume","t_ms":7,"reason":"restored","shown_ms":1}"#),
            (.mute, #"{"event":"mute","t_ms":7}"#),
            (.unmute, #"{"event":"unmute","t_ms":7}"#),
            (.skip(via: .close, shownMs: 3), #"{"event":"skip","t_ms":7,"via":"close","shown_ms":3}"#),
            (.click(link: "https://e.x/", shownMs: 4), #"{"event":"click","t_ms":7,"link":"https://e.x/","shown_ms":4}"#),
            (
                .complete(shownMs: 5000, frames: frames),
                #"{"event":"complete","t_ms":7,"shown_ms":5000,"frames_shown":1,"frames_dropped":2,"av_offset_ms_max":20}"#
            ),
            (.complete(shownMs: 5000, frames: nil), #"{"event":"complete","t_ms":7,"shown_ms":5000}"#),
            (.fallback(reason: .error(.failure(.notMedia))), #"{"event":"fallback","t_ms":7,"reason":"not_media"}"#),
            (.fallback(reason: .error(.vast(303))), #"{"event":"fallback","t_ms":7,"reason":"vast_303"}"#),
            (.fallback(reason: .noAd), #"{"event":"fallback","t_ms":7,"reason":"no_ad"}"#),
            (.waitExpired(waitedMs: 3000), #"{"event":"wait_expired","t_ms":7,"waited_ms":3000}"#),
            (.caption(text: "a\nb", atMs: 120), #"{"event":"caption","t_ms":7,"text":"a\nb","at_ms":120}"#),
            (.audioUnavailable(message: "m"), #"{"event":"audio_unavailable","t_ms":7,"message":"m"}"#),
            (.fontMissing(message: "m"), #"{"event":"font_missing","t_ms":7,"message":"m"}"#),
            (.logoUnavailable(message: "m"), #"{"event":"logo_unavailable","t_ms":7,"message":"m"}"#),
            (.readError(message: "m"), #"{"event":"read_error","t_ms":7,"message":"m"}"#),
            (.renderError(message: "m"), #"{"event":"render_error","t_ms":7,"message":"m"}"#),
            (
                .linkOpenFailed(link: "https://e.x/", message: "m"),
                #"{"event":"link_open_failed","t_ms":7,"link":"https://e.x/","message":"m"}"#
            ),
            (.controlError(line: "jump", message: "m"), #"{"event":"control_error","t_ms":7,"line":"jump","message":"m"}"#)
        ]
        for (event, expected) in cases { XCTAssertEqual(line(event), expected) }
    }

    func testErrors() {
        let cases: [(LaunchEvent, String)] = [
            (.error(PlayError(.notMedia, "m")), #"{"event":"error","t_ms":7,"code":"not_media","message":"m"}"#),
            (
                .error(PlayError(.mediaTruncated, "m", detail: .truncated(shownMs: 100, declaredMs: 900))),
                #"{"event":"error","t_ms":7,"code":"media_truncated","message":"m","shown_ms":100,"declared_ms":900}"#
            ),
            (
                .error(PlayError(.mediaStalled, "m", detail: .stalled(shownMs: 100, stalledMs: 3000, frames: frames))),
                #"{"event":"error","t_ms":7,"code":"media_stalled","message":"m","shown_ms":100,"stalled_ms":3000,"frames_shown":1,"frames_dropped":2,"av_offset_ms_max":20}"#
            ),
            // A player error in a VAST run: its VAST code last.
            (
                .error(PlayError(.failure(.openFailed), "m", vastError: 401)),
                #"{"event":"error","t_ms":7,"code":"open_failed","message":"m","vast_error":401}"#
            ),
            // The VAST layer's own: the VAST code second.
            (
                .error(PlayError(.vast(303), "m", vastError: 303, adID: "a1")),
                #"{"event":"error","t_ms":7,"code":"vast_303","vast_error":303,"message":"m","ad_id":"a1"}"#
            ),
            (
                .error(PlayError(.failure(.firstFrameTimeout), "m", vastError: 402)),
                #"{"event":"error","t_ms":7,"code":"first_frame_timeout","vast_error":402,"message":"m"}"#
            )
        ]
        for (event, expected) in cases { XCTAssertEqual(line(event), expected) }
    }

    func testEnds() {
        let cases: [(LaunchEvent, String)] = [
            // The embedding API's alone: the prepared ad is ready to present.
            (.ready, #"{"event":"ready","t_ms":7}"#),
            (
                .end(RunEnd(outcome: .completed, shownMs: 5000, frames: frames)),
                #"{"event":"end","t_ms":7,"outcome":"completed","shown_ms":5000,"frames_shown":1,"frames_dropped":2,"av_offset_ms_max":20}"#
            ),
            (.end(RunEnd(outcome: .skipped, shownMs: 10)), #"{"event":"end","t_ms":7,"outcome":"skipped","shown_ms":10}"#),
            (.end(RunEnd(outcome: .noAd, reason: .noManifest)), #"{"event":"end","t_ms":7,"outcome":"no_ad","reason":"no_manifest"}"#),
            (
                .end(RunEnd(outcome: .noAd, shownMs: 0, frames: frames, reason: .creativeLate)),
                #"{"event":"end","t_ms":7,"outcome":"no_ad","shown_ms":0,"frames_shown":1,"frames_dropped":2,"av_offset_ms_max":20,"reason":"creative_late"}"#
            ),
            (
                .end(RunEnd(outcome: .completed, shownMs: 9000, adsPlayed: 2)),
                #"{"event":"end","t_ms":7,"outcome":"completed","shown_ms":9000,"ads_played":2}"#
            ),
            (.end(RunEnd(outcome: .completed)), #"{"event":"end","t_ms":7,"outcome":"completed"}"#),
            (.end(RunEnd(outcome: .capped, shownMs: 3000)), #"{"event":"end","t_ms":7,"outcome":"capped","shown_ms":3000}"#),
            (
                .adEnd(adID: "a1", sequence: 2, end: RunEnd(outcome: .completed, shownMs: 10)),
                #"{"event":"ad_end","t_ms":7,"ad_id":"a1","sequence":2,"outcome":"completed","shown_ms":10}"#
            ),
            (
                .adEnd(adID: nil, sequence: nil, end: RunEnd(outcome: .noAd, shownMs: 0)),
                #"{"event":"ad_end","t_ms":7,"ad_id":null,"outcome":"no_ad","shown_ms":0}"#
            )
        ]
        for (event, expected) in cases { XCTAssertEqual(line(event), expected) }
    }

    func testCaptionsAndIcons() {
        let cases: [(LaunchEvent, String)] = [
            (
                .captions(CaptionsRead(source: .sidecar, file: "a.vtt", format: "webvtt", cues: 3)),
                #"{"event":"captions","t_ms":7,"source":"sidecar","file":"a.vtt","format":"webvtt","cues":3}"#
            ),
            (
                .captions(CaptionsRead(source: .vast, file: "a.vtt", format: "webvtt", cues: 3, language: "en")),
                #"{"event":"captions","t_ms":7,"source":"vast","file":"a.vtt","language":"en","format":"webvtt","cues":3}"#
            ),
            (
                .captions(CaptionsRead(source: .sidecar, file: "a.vtt", format: "webvtt", cues: 0, neverShown: 4)),
                #"{"event":"captions","t_ms":7,"source":"sidecar","file":"a.vtt","format":"webvtt","cues":0,"never_shown":4}"#
            ),
            (
                .captions(CaptionsRead(source: .embedded, file: "a.mp4", format: "mov_text", cues: 2, language: nil)),
                #"{"event":"captions","t_ms":7,"source":"embedded","file":"a.mp4","format":"mov_text","cues":2,"language":null}"#
            ),
            (
                .captionsError(CaptionsProblem(source: .vast, file: "a.vtt", language: "en", message: "m", skipped: 2)),
                #"{"event":"captions_error","t_ms":7,"source":"vast","file":"a.vtt","language":"en","message":"m","skipped":2}"#
            ),
            (
                .captionsError(CaptionsProblem(source: .embedded, file: "a.mp4", message: "m")),
                #"{"event":"captions_error","t_ms":7,"source":"embedded","file":"a.mp4","message":"m"}"#
            ),
            (
                .icon(IconEvent(.view, index: 0, program: "AdChoices", shownMs: 100)),
                #"{"event":"icon_view","t_ms":7,"index":0,"program":"AdChoices","shown_ms":100}"#
            ),
            (
                .icon(IconEvent(.click(link: nil), index: 1, program: nil, shownMs: 100)),
                #"{"event":"icon_click","t_ms":7,"index":1,"program":null,"shown_ms":100,"link":null}"#
            ),
            (
                .icon(IconEvent(.refused(message: "m"), index: 1, program: nil, shownMs: 100)),
                #"{"event":"icon_refused","t_ms":7,"index":1,"program":null,"shown_ms":100,"message":"m"}"#
            ),
            // Before the ad plays (its picture could not be fetched): no shown time.
            (
                .icon(IconEvent(.error(message: "m"), index: 2, program: "x", shownMs: nil)),
                #"{"event":"icon_error","t_ms":7,"index":2,"program":"x","message":"m"}"#
            )
        ]
        for (event, expected) in cases { XCTAssertEqual(line(event), expected) }
    }

    func testVAST() {
        let chosen = VASTAdChosen(
            adID: "a1", sequence: nil, adSystem: "S", wrappers: 1, media: "https://m.x/a.mp4", reason: "closest",
            icons: 1, iconsSkipped: [.init(index: 1, program: nil, reason: "HTMLResource")], urisDropped: ["start": 3, "impression": 2])
        let cases: [(LaunchEvent, String)] = [
            (
                .vast(VASTResponse(version: "4.2", ads: 3, pod: 2, buffet: 1)),
                #"{"event":"vast","t_ms":7,"version":"4.2","ads":3,"pod":2,"buffet":1}"#
            ),
            (
                .vastAd(chosen),
                #"{"event":"vast_ad","t_ms":7,"ad_id":"a1","sequence":null,"ad_system":"S","wrappers":1,"media":"https://m.x/a.mp4","reason":"closest","icons":1,"icons_skipped":[{"index":1,"program":null,"reason":"HTMLResource"}],"uris_dropped":5,"uris_dropped_by_event":{"impression":2,"start":3}}"#
            ),
            (
                .mediaFallback(media: "https://m.x/a.mp4", code: .notMedia, message: "m"),
                #"{"event":"media_fallback","t_ms":7,"media":"https://m.x/a.mp4","code":"not_media","message":"m"}"#
            )
        ]
        for (event, expected) in cases { XCTAssertEqual(line(event), expected) }
    }

    func testLaunchPrefetchAndDelivery() {
        let cases: [(LaunchEvent, String)] = [
            (.cacheHit(id: "a", sha256: "ab", file: "/c/ab"), #"{"event":"cache_hit","t_ms":7,"id":"a","sha256":"ab","file":"/c/ab"}"#),
            (.cacheMiss(reason: .nothingReady), #"{"event":"cache_miss","t_ms":7,"reason":"nothing_ready"}"#),
            (.cacheMiss(reason: .unverified), #"{"event":"cache_miss","t_ms":7,"reason":"unverified"}"#),
            (.stream(id: "a", url: "https://c.x/a.mp4"), #"{"event":"stream","t_ms":7,"id":"a","url":"https://c.x/a.mp4"}"#),
            (
                .handoff(via: .appWindow, appPID: 42, waitedMs: 300),
                #"{"event":"handoff","t_ms":7,"via":"app_window","app_pid":42,"waited_ms":300}"#
            ),
            (
                .appNotStarted(app: "kiosk-app", message: "cannot start kiosk-app: No such file or directory"),
                #"{"event":"app_not_started","t_ms":7,"app":"kiosk-app","message":"cannot start kiosk-app: No such file or directory"}"#
            ),
            (.prefetchStart(manifest: "https://c.x/m.json"), #"{"event":"prefetch_start","t_ms":7,"manifest":"https://c.x/m.json"}"#),
            (
                .prefetchDone(
                    PrefetchSummary(ok: true, downloads: 1, bytes: 10, rejected: 1, failed: 0, evicted: 2, cachedBytes: 30, ms: 40)),
                #"{"event":"prefetch_done","t_ms":7,"ok":true,"downloads":1,"bytes":10,"rejected":1,"failed":0,"evicted":2,"cached_bytes":30,"ms":40}"#
            ),
            (.rejected(id: "a", reason: "r", field: "starts"), #"{"event":"rejected","t_ms":7,"id":"a","reason":"r","field":"starts"}"#),
            (.rejected(id: "a", reason: "r", field: nil), #"{"event":"rejected","t_ms":7,"id":"a","reason":"r"}"#),
            (
                .download(Download(id: "a", bytes: 10, ms: 5, sha256: "ab")),
                #"{"event":"download","t_ms":7,"id":"a","bytes":10,"ms":5,"sha256":"ab"}"#
            ),
            (
                .download(Download(id: "a", bytes: 10, ms: nil, sha256: "ab", vast: true)),
                #"{"event":"download","t_ms":7,"id":"a","bytes":10,"sha256":"ab","vast":true}"#
            ),
            (
                .evicted(id: "a", sha256: "ab", bytes: 10, reason: "cache_limit"),
                #"{"event":"evicted","t_ms":7,"id":"a","sha256":"ab","bytes":10,"reason":"cache_limit"}"#
            ),
            (
                .notModified(id: "manifest", url: "https://c.x/m.json"),
                #"{"event":"not_modified","t_ms":7,"id":"manifest","url":"https://c.x/m.json"}"#
            ),
            (
                .manifestRejected(ManifestRefusal(.badSignature, "m"), manifest: "https://c.x/m.json"),
                #"{"event":"manifest_rejected","t_ms":7,"reason":"bad_signature","manifest":"https://c.x/m.json","message":"m"}"#
            ),
            (
                .manifestRejected(ManifestRefusal(.rollback, "m"), manifest: "https://c.x/m.json"),
                #"{"event":"manifest_rejected","t_ms":7,"reason":"rollback","manifest":"https://c.x/m.json","message":"m"}"#
            ),
            (.outboxError(reason: "r"), #"{"event":"outbox_error","t_ms":7,"reason":"r"}"#),
            (.outboxUnavailable(reason: "r"), #"{"event":"outbox_unavailable","t_ms":7,"reason":"r"}"#),
            (.metricsUnavailable(reason: "r"), #"{"event":"metrics_unavailable","t_ms":7,"reason":"r"}"#),
            (.reportRefused(reason: "r"), #"{"event":"report_refused","t_ms":7,"reason":"r"}"#)
        ]
        for (event, expected) in cases { XCTAssertEqual(line(event), expected) }
    }

    /// Every failure code is written as the text scripts match on, and the VAST code of each is
    /// the one its Error URIs are sent with.
    func testFailureCodesAndTheirVASTCodes() {
        XCTAssertEqual(ErrorCode.failure(.fileNotFound).text, "file_not_found")
        XCTAssertEqual(ErrorCode.vast(402).text, "vast_402")
        let expected: [FailureCode: Int] = [
            .fileNotFound: 401, .openFailed: 401, .permissionDenied: 401, .firstFrameTimeout: 402, .decoderMissing: 405,
            .notMedia: 405, .noVideoStream: 405, .mediaTruncated: 405, .mediaStalled: 405, .noFrames: 405
        ]
        for (code, vast) in expected { XCTAssertEqual(code.vastCode, vast, code.rawValue) }
        XCTAssertEqual(
            Set(FailureCode.allCases.filter(\.isOpenFailure)),
            [.fileNotFound, .openFailed, .permissionDenied, .decoderMissing, .notMedia, .noVideoStream])
        XCTAssertEqual(Set(FailureCode.allCases.map(\.rawValue)).count, FailureCode.allCases.count, "each code's text is its own")
    }
}
