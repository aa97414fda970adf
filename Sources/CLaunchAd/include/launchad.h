/* launchad.h: show a launch ad inside an application's own window.
 *
 * LaunchAd plays launch advertisements (a short video or an image, a "Skip 5" button, a
 * click-through link, VAST tags, a cache filled from a manifest server, tracking beacons and
 * proof-of-play records). This is its C interface: an application creates one `launchad`
 * handle with the same options as the `launchad play` or `launchad launch` command, prepares it
 * (the tag fetched, the cache read, the first picture decoded), gives it somewhere to draw (its
 * own SDL renderer, its X11 window, or a pixel buffer it copies from), and calls `launchad_render` from its
 * own loop until the ad ends. Events (ready, first frame, skip, click, quartiles, end, ...)
 * come through a callback, from inside `launchad_render` or `launchad_poll_events` only, on the
 * thread that called them: never from another thread, never in the middle of another call.
 *
 * Threads: every function may be called from any thread. One call on a handle runs at a time
 * (a second thread waits for the first to return: at most a picture's upload, or the timeout
 * it gave launchad_prepare); launchad_input, launchad_dismiss and the setters never wait.
 * From inside the event callback, launchad_input and launchad_dismiss queue, launchad_destroy
 * takes effect when the call that delivered the event returns, and every other call returns
 * LAUNCHAD_ERROR_INVALID_STATE. Nothing runs on the host's thread that can block it: libraries
 * are loaded, files opened and documents fetched on the handle's own threads.
 *
 * The host's process is left as it was found: the library installs no signal handler (SDL is
 * told not to), sets no environment variable, writes nothing to stdout or stderr, and two
 * handles share no setting. FFmpeg's own log level is the process's: the library leaves it as
 * the host set it (FFmpeg prints warnings about broken media to stderr by default; a host that
 * wants silence calls av_log_set_level).
 *
 * Every function is safe to call with a NULL handle (it returns LAUNCHAD_ERROR_INVALID_ARGUMENT
 * or does nothing). Strings given to the library are copied; strings it gives (event fields,
 * error texts) live until the callback returns or the next call on the same handle.
 *
 * docs/embedding.md has a 20-line example and the whole story; libmpv's client API is the
 * model. Link with `pkg-config --cflags --libs launchad`.
 */
#ifndef LAUNCHAD_H
#define LAUNCHAD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The API's version: the major part changes when a function or a struct field changes
 * meaning or goes away (the soname follows it: liblaunchad.so.0), the minor when one is added. */
#define LAUNCHAD_API_VERSION_MAJOR 0
#define LAUNCHAD_API_VERSION_MINOR 3
#define LAUNCHAD_API_VERSION ((LAUNCHAD_API_VERSION_MAJOR << 16) | LAUNCHAD_API_VERSION_MINOR)

/* The API version of the library loaded (compare with LAUNCHAD_API_VERSION). */
unsigned int launchad_api_version(void);

/* The version of the event lines' schema (`json` below), as `launchad --version` says it. */
int launchad_event_schema_version(void);

/* Errors: every function that can fail returns 0 or one of these (negative). */
enum launchad_error {
    LAUNCHAD_OK = 0,
    /* A NULL handle or pointer, or an option the command line would refuse. */
    LAUNCHAD_ERROR_INVALID_ARGUMENT = -1,
    /* Not now: present with nothing attached, a second attach or one after present, render
     * after it returned LAUNCHAD_RENDER_ENDED, prepare or present once the END was delivered,
     * launchad_frame without a buffer (or before its first drawn frame), or a call from inside
     * the event callback other than input, dismiss and destroy. */
    LAUNCHAD_ERROR_INVALID_STATE = -2,
    /* Nothing to show: no ad cached or scheduled, a tag with no ad, a file that cannot play. */
    LAUNCHAD_ERROR_NO_AD = -3,
    /* prepare ran out of time before the first picture was ready. */
    LAUNCHAD_ERROR_TIMEOUT = -4,
    /* FFmpeg or SDL2 cannot be loaded. */
    LAUNCHAD_ERROR_LIBRARY_MISSING = -5,
    /* The renderer, buffer or X11 window given cannot be drawn on. */
    LAUNCHAD_ERROR_RENDER = -6,
    /* No such X11 window: an unknown or destroyed window id, or no X11 display ($DISPLAY). (API 0.2) */
    LAUNCHAD_ERROR_NO_WINDOW = -7,
};

/* A one-line text for an error code (static; never NULL). */
const char *launchad_strerror(int error);

/* One launch ad. Opaque. */
typedef struct launchad launchad;

/* Creates a handle from command-line arguments, as `launchad` takes them after its name (a
 * NULL among the first argc is refused, LAUNCHAD_ERROR_INVALID_ARGUMENT):
 *     {"play", "ad.mp4", "--skip-after", "2"}
 *     {"play", "--vast", "https://ads.example.com/tag.xml", "--report", "https://..."}
 *     {"launch", "--manifest", "https://ads.example.com/manifest.json"}
 * Every option of `play` and `launch` works as documented for the command (skip, layout,
 * captions, fallback, link, VAST, cache, tracking, outbox, play records), except those about a
 * window or a process, which the host owns: --events, --control, --then, --hold, --metrics,
 * --fullscreen, --size, --device and --rotate are refused. Returns NULL when the arguments are
 * refused; `error` (may be NULL) gets the code, and `launchad_strerror` plus the handle-less
 * `launchad_last_usage_error()` say why. Nothing is fetched, opened or drawn until prepare. */
launchad *launchad_create(int argc, const char *const argv[], int *error);

/* Why the last launchad_create that failed on this thread did (one line), or NULL; valid
 * until the next failed launchad_create on the same thread (per thread, as errno is). */
const char *launchad_last_usage_error(void);

/* The event ids: one per event of the JSON lines (docs/playing.md#events). `id` keeps API 0.2's
 * groups (WARNING, CACHE, DELIVERY and ICON cover several events); `kind` (API 0.3) is always
 * the event's own id, from the whole list below. */
enum launchad_event_id {
    LAUNCHAD_EVENT_OTHER = 0, /* an event this header does not name: read `name` and `json` */
    LAUNCHAD_EVENT_START,
    LAUNCHAD_EVENT_WINDOW,
    LAUNCHAD_EVENT_FIRST_FRAME,
    LAUNCHAD_EVENT_SKIP_AVAILABLE,
    LAUNCHAD_EVENT_QUARTILE,
    LAUNCHAD_EVENT_PROGRESS,
    LAUNCHAD_EVENT_PAUSE,
    LAUNCHAD_EVENT_RESUME,
    LAUNCHAD_EVENT_MUTE,
    LAUNCHAD_EVENT_UNMUTE,
    LAUNCHAD_EVENT_SKIP,
    LAUNCHAD_EVENT_CLICK,
    LAUNCHAD_EVENT_COMPLETE,
    LAUNCHAD_EVENT_FALLBACK,
    LAUNCHAD_EVENT_WAIT_EXPIRED,
    LAUNCHAD_EVENT_CAPTION,
    LAUNCHAD_EVENT_CAPTIONS,
    LAUNCHAD_EVENT_CAPTIONS_ERROR,
    LAUNCHAD_EVENT_ICON,
    LAUNCHAD_EVENT_ERROR,
    LAUNCHAD_EVENT_WARNING, /* audio_unavailable, font_missing, logo_unavailable, read_error, render_error, link_open_failed, control_error */
    LAUNCHAD_EVENT_VAST,
    LAUNCHAD_EVENT_VAST_AD,
    LAUNCHAD_EVENT_MEDIA_FALLBACK,
    LAUNCHAD_EVENT_AD_END,
    LAUNCHAD_EVENT_CACHE, /* cache_hit, cache_miss, stream, handoff, app_not_started, prefetch_start, prefetch_done, download, rejected, evicted, not_modified */
    LAUNCHAD_EVENT_DELIVERY, /* outbox_error, outbox_unavailable, report_refused, metrics_unavailable */
    LAUNCHAD_EVENT_END,
    /* API 0.3: the prepared ad's first picture (or fallback) is decoded: present shows it at once.
     * Comes once a run, before the first frame, from launchad_poll_events or launchad_render:
     * while the ad is prepared (the answer to prepare(ad, 0)), or with the first render that
     * finds it ready when the host presented first. A run with nothing to show has END instead. */
    LAUNCHAD_EVENT_READY,
    /* API 0.3: each event of the groups above by its own id (as `kind`; `id` says the group). */
    LAUNCHAD_EVENT_AUDIO_UNAVAILABLE,
    LAUNCHAD_EVENT_FONT_MISSING,
    LAUNCHAD_EVENT_LOGO_UNAVAILABLE,
    LAUNCHAD_EVENT_READ_ERROR,
    LAUNCHAD_EVENT_RENDER_ERROR,
    LAUNCHAD_EVENT_LINK_OPEN_FAILED,
    LAUNCHAD_EVENT_CONTROL_ERROR,
    LAUNCHAD_EVENT_CACHE_HIT,
    LAUNCHAD_EVENT_CACHE_MISS,
    LAUNCHAD_EVENT_STREAM,
    LAUNCHAD_EVENT_HANDOFF,
    LAUNCHAD_EVENT_APP_NOT_STARTED,
    LAUNCHAD_EVENT_PREFETCH_START,
    LAUNCHAD_EVENT_PREFETCH_DONE,
    LAUNCHAD_EVENT_REJECTED,
    LAUNCHAD_EVENT_DOWNLOAD,
    LAUNCHAD_EVENT_EVICTED,
    LAUNCHAD_EVENT_NOT_MODIFIED,
    LAUNCHAD_EVENT_OUTBOX_ERROR,
    LAUNCHAD_EVENT_OUTBOX_UNAVAILABLE,
    LAUNCHAD_EVENT_REPORT_REFUSED,
    LAUNCHAD_EVENT_METRICS_UNAVAILABLE,
    LAUNCHAD_EVENT_ICON_VIEW,
    LAUNCHAD_EVENT_ICON_CLICK,
    LAUNCHAD_EVENT_ICON_REFUSED,
    LAUNCHAD_EVENT_ICON_ERROR,
    /* API 0.3: a manifest refused by its signature, version or expiry (`reason`: unsigned,
     * bad_signature, unknown_key, rollback, expired, malformed; `url`: the manifest); id CACHE. */
    LAUNCHAD_EVENT_MANIFEST_REJECTED
};

/* How a run ended (the END event's outcome). */
enum launchad_outcome {
    LAUNCHAD_OUTCOME_NONE = 0, /* not an END event */
    LAUNCHAD_OUTCOME_COMPLETED,
    LAUNCHAD_OUTCOME_CAPPED,
    LAUNCHAD_OUTCOME_SKIPPED,
    LAUNCHAD_OUTCOME_CLICKED,
    LAUNCHAD_OUTCOME_ENDED_BY_HOST,
    LAUNCHAD_OUTCOME_NO_AD,
    LAUNCHAD_OUTCOME_TIMEOUT,
    LAUNCHAD_OUTCOME_ERROR
};

/* One event. Fields that do not apply are NULL, 0 or -1 as said. */
typedef struct launchad_event {
    enum launchad_event_id id;
    /* The event's name, as in the JSON lines ("first_frame", "quartile", "end", ...). */
    const char *name;
    /* Milliseconds since the process started (the JSON lines' t_ms). */
    int64_t t_ms;
    /* The event as the command line writes it: one JSON object, no newline. */
    const char *json;
    /* QUARTILE: 25, 50 or 75; else 0. */
    int quartile;
    /* END and AD_END: how it ended; else LAUNCHAD_OUTCOME_NONE. */
    enum launchad_outcome outcome;
    /* END, AD_END: the outcome's name ("completed", ...); else NULL. */
    const char *outcome_name;
    /* CLICK: the link (with [ADPLAYHEAD] filled in); else NULL. */
    const char *link;
    /* ERROR: the stable code ("not_media", "vast_303", ...); else NULL. */
    const char *error_code;
    /* ERROR, WARNING, CAPTIONS_ERROR: one line; else NULL. */
    const char *message;
    /* The ad's shown time the event carries, in ms, or -1. */
    int64_t shown_ms;
    /* API 0.3. The fields below are those of the JSON line, typed; each event fills those it
     * carries (docs/embedding.md#events lists them) and leaves the others NULL or -1. */
    /* The event's own id: never a group (see enum launchad_event_id). */
    enum launchad_event_id kind;
    /* The ad the event is about (its "id" or "ad_id"). */
    const char *ad_id;
    /* The file or URL it names: start's file, cache_hit's file, stream's and not_modified's url,
     * vast_ad's and media_fallback's media, prefetch_start's manifest, captions' file, link_open_failed's link. */
    const char *url;
    /* Why or how ("reason", or "via" for skip and handoff, "mark" for progress). */
    const char *reason;
    /* The creative's sha256: cache_hit, download, evicted. */
    const char *sha256;
    /* Text: a caption's (empty: cleared), a control_error's line, a vast event's version. */
    const char *text;
    /* Bytes: download, evicted, prefetch_done. */
    int64_t bytes;
    /* A count: captions' cues, captions_error's skipped cues, vast's ads, prefetch_done's downloads,
     * end's ads_played, an icon's index, vast_ad's and ad_end's pod sequence, handoff's app pid. */
    int64_t count;
    /* start's creative duration (ms; -1 for an image or unknown), wait_expired's and handoff's waited ms. */
    int64_t duration_ms;
    /* start's and window's size in pixels; else 0. */
    int width, height;
    /* first_frame: 1 when the fallback is shown; start: 1 when it has sound; window: 1 when
     * fullscreen; prefetch_done: 1 when ok; else 0. */
    int flag;
} launchad_event;

/* Called with each event, from inside launchad_render or launchad_poll_events, on the thread
 * that called them. It may call launchad_dismiss or launchad_input (they only queue) and
 * launchad_destroy (done when the delivering call returns; the handle must not be used after);
 * any other call on the handle returns LAUNCHAD_ERROR_INVALID_STATE. */
typedef void (*launchad_event_fn)(void *user, const launchad_event *event);

/* Called from the handle's own wake-up thread when the host should call launchad_render (or
 * launchad_poll_events) soon: a picture is ready, an event is waiting. It must only wake the
 * host's loop (SDL_PushEvent, g_main_context_wakeup, a pipe) and return; it must not call into
 * the library. Decoders never wait for it: one that blocks delays the next wake-ups only (those
 * that come meanwhile are folded into one call). After launchad_destroy returns it is not called
 * again (destroy waits at most 1 s for a call in progress). */
typedef void (*launchad_wakeup_fn)(void *user);

void launchad_set_event_callback(launchad *ad, launchad_event_fn callback, void *user);
void launchad_set_wakeup_callback(launchad *ad, launchad_wakeup_fn callback, void *user);

/* Gets the ad ready on the handle's own threads (FFmpeg and SDL2 loaded, the tag and its
 * wrappers fetched, the cache read and the next ad fetched in the background as `launch` does,
 * the creative opened and its first picture decoded) and waits at most `timeout_seconds` for it.
 * With 0 it returns at once (within a millisecond or so, the first call of a process too) and
 * the READY event, or the END event, says how it went: the way for a UI thread (GTK, Qt).
 * LAUNCHAD_OK: ready, present will show it at once. LAUNCHAD_ERROR_TIMEOUT: not ready yet;
 * presenting still shows it (or the fallback) as soon as it is, within --wait.
 * LAUNCHAD_ERROR_NO_AD: nothing to show (an END event with outcome no_ad or error follows).
 * LAUNCHAD_ERROR_LIBRARY_MISSING: FFmpeg or SDL2 cannot be loaded (an ERROR event says which).
 * Calling it again asks again. A NaN or negative timeout is 0; over an hour (infinity too) is an hour. */
int launchad_prepare(launchad *ad, double timeout_seconds);

/* Where the ad draws; call one, once, before present.
 * An SDL2 window and renderer the host made and keeps (SDL_Window *, SDL_Renderer *, from the
 * same libSDL2 the process uses): the ad draws into the renderer's whole output from
 * launchad_render, which leaves the renderer's draw colour, blend mode, viewport, clip, scale
 * and target as it found them; the host calls SDL_RenderPresent. */
int launchad_attach_sdl(launchad *ad, void *sdl_window, void *sdl_renderer);

/* An X11 window the host made and keeps (an Xlib `Window`, GTK 4's gdk_x11_surface_get_xid, Qt's
 * QWidget::winId, Tk's `winfo id`), on the display $DISPLAY names; the host needs no SDL. The
 * library starts SDL's video with its X11 driver (unless the process already did, with X11;
 * SDL_VIDEODRIVER, when set, must say x11) and
 * draws and presents each frame into the window from launchad_render, laid out to the window's
 * size at this call; the host draws nothing in it until LAUNCHAD_RENDER_ENDED, after which the
 * window is the host's again (the library's hold on it is gone; the X window is never destroyed).
 * An unknown or destroyed id, no display, or a display server that does not answer within 2 s
 * (asked on a thread of the library's, never holding the host's): LAUNCHAD_ERROR_NO_WINDOW,
 * nothing attached. An InputOnly window (no pixels): LAUNCHAD_ERROR_RENDER.
 * SDL_VIDEODRIVER naming another driver, or SDL's video already started with another:
 * LAUNCHAD_ERROR_RENDER. A window destroyed
 * while the ad plays ends it (an ERROR event with code "window_lost", then END with outcome
 * error); X errors about the window are caught meanwhile, others still reach the process's
 * handler. X11 only: under Wayland use launchad_attach_sdl or launchad_attach_buffer. (API 0.2) */
int launchad_attach_x11(launchad *ad, unsigned long x11_window);

/* A 32-bit pixel buffer of width x height that the library owns: the host copies from it after
 * each launchad_render that returns LAUNCHAD_RENDER_DRAWN (launchad_frame). Needs no display. */
int launchad_attach_buffer(launchad *ad, int width, int height);

/* The buffer attached with launchad_attach_buffer: ARGB8888 pixels (32-bit words 0xAARRGGBB: bytes
 * B, G, R, A on a little-endian machine; opaque), `pitch` bytes a row, valid
 * until the next launchad_render. Returns LAUNCHAD_ERROR_INVALID_STATE without a buffer. */
int launchad_frame(launchad *ad, const void **pixels, int *width, int *height, int *pitch);

/* Starts showing: the first frame is drawn by the next launchad_render; --wait counts from here.
 * Starts the run if launchad_prepare did not. LAUNCHAD_ERROR_INVALID_STATE with nothing attached. */
int launchad_present(launchad *ad);

/* What launchad_render did. */
enum launchad_render_result {
    /* Nothing new to draw (the host may redraw its last frame or wait for the wake-up). */
    LAUNCHAD_RENDER_IDLE = 0,
    /* A new frame was drawn into the renderer or the buffer. */
    LAUNCHAD_RENDER_DRAWN = 1,
    /* The ad is over (its END event has been delivered): the window is the host's again. */
    LAUNCHAD_RENDER_ENDED = 2
};

/* One turn of the ad: takes what the decoders made, runs the countdown, draws a frame when one
 * is due, and delivers the events that are waiting. Call it on the thread that owns the
 * renderer (any thread for a buffer), every frame of the host's loop (or when woken); it never
 * blocks for more than a picture's upload. Returns a launchad_render_result, or a negative
 * error: LAUNCHAD_ERROR_INVALID_STATE once LAUNCHAD_RENDER_ENDED has been returned. */
int launchad_render(launchad *ad);

/* Delivers the events that are waiting (for a host that has not attached yet, or has stopped
 * rendering); returns how many. */
int launchad_poll_events(launchad *ad);

/* What the host tells the ad. */
enum launchad_input_kind {
    /* A click or tap released at (x, y), in the renderer's output pixels (or the buffer's). */
    LAUNCHAD_INPUT_POINTER_UP = 1,
    /* The Escape key (skips when the button allows it), the M key (mute), the space bar (pause). */
    LAUNCHAD_INPUT_KEY_ESCAPE,
    LAUNCHAD_INPUT_KEY_MUTE,
    LAUNCHAD_INPUT_KEY_PAUSE,
    /* The host's window lost or regained focus, was minimized or restored, hidden or shown. */
    LAUNCHAD_INPUT_FOCUS_LOST,
    LAUNCHAD_INPUT_FOCUS_GAINED,
    LAUNCHAD_INPUT_MINIMIZED,
    LAUNCHAD_INPUT_RESTORED,
    LAUNCHAD_INPUT_HIDDEN,
    LAUNCHAD_INPUT_SHOWN,
    /* The host's window is closing: the ad ends as skipped (via close). */
    LAUNCHAD_INPUT_CLOSE,
    /* Sound off and on. */
    LAUNCHAD_INPUT_MUTE,
    LAUNCHAD_INPUT_UNMUTE
};

/* Passes one input to the ad; x and y are used by LAUNCHAD_INPUT_POINTER_UP only. */
int launchad_input(launchad *ad, enum launchad_input_kind kind, double x, double y);

/* Ends the ad now (outcome ended_by_host): its END event comes with the next render. */
int launchad_dismiss(launchad *ad);

/* Stops everything (decoders, sound, background fetches, waiting beacons are kept in the
 * outbox for the next run) and frees the handle. Textures it made on a host's renderer are
 * destroyed here: call it before destroying that renderer. */
void launchad_destroy(launchad *ad);

/* ---- OpenGL: the host's own context (API 0.3) -------------------------------------------- */

/* The host's get_proc_address: a GL function's address by name (eglGetProcAddress,
 * glXGetProcAddressARB, QOpenGLContext::getProcAddress, SDL_GL_GetProcAddress), NULL when none.
 * `ctx` is what the host gave launchad_attach_gl. */
typedef void *(*launchad_gl_get_proc_address_fn)(void *ctx, const char *name);

/* Draws into the OpenGL (2.0 or later) or OpenGL ES (2.0 or later) context current on the
 * calling thread: a GtkGLArea's, a QOpenGLWidget's, the host's own EGL or GLX one. The library
 * links no GL library: every function comes from get_proc_address (libmpv's render API is the
 * model). From then on, each launchad_render called with that context current draws a whole
 * frame (black, the picture converted from its YUV planes in a shader, the skip button,
 * countdown, captions, logo and icons blended over it) into the framebuffer bound at that moment
 * (GL_DRAW_FRAMEBUFFER_BINDING: GtkGLArea's and QOpenGLWidget's own), inside its viewport
 * (GL_VIEWPORT), laid out to the viewport's size: again whenever that size changes. It returns
 * LAUNCHAD_RENDER_DRAWN when it drew, LAUNCHAD_RENDER_IDLE when it drew nothing (no picture
 * yet, between two ads, detached): draw your own content then. The GL state the host set is put
 * back after each frame; docs/embedding.md ("The GL state contract") lists what is saved. The
 * wake-up callback also comes when the next frame is due, so render when woken
 * (gtk_gl_area_queue_render, QWidget::update) and when the toolkit asks; pointer positions for
 * LAUNCHAD_INPUT_POINTER_UP are in the viewport's pixels, origin at its top-left corner.
 * GL objects are made and deleted only inside launchad_render, launchad_detach_gl and
 * launchad_destroy: call them with this context current. launchad_render with no context
 * current, or another one, runs the ad's turn and draws nothing (IDLE; a "render_error" warning
 * says so once, unless the ad is paused: a minimized window, which its toolkit does not render,
 * is turned so, after LAUNCHAD_INPUT_MINIMIZED or HIDDEN). Which context is current is asked
 * of the EGL or GLX library the process has loaded, never through get_proc_address. Nothing is
 * drawn either while the host's current program is one it deleted (drawing would free it), or
 * in a viewport over 7680x4320 pixels. Nothing is loaded on the calling thread: it may come
 * before READY.
 * Errors: LAUNCHAD_ERROR_RENDER when no context is current, a function every context has is
 * missing (a core profile's vertex array functions among them), or the context is older than 2.0; LAUNCHAD_ERROR_INVALID_STATE when another output
 * is attached. Called again (after launchad_detach_gl, when the host's context was made anew),
 * it draws into the context current now. */
int launchad_attach_gl(launchad *ad, launchad_gl_get_proc_address_fn get_proc_address, void *get_proc_address_ctx);

/* The host's context is going (GtkGLArea's "unrealize", QOpenGLContext::aboutToBeDestroyed):
 * with it current, the ad's GL objects in it are deleted (if it is gone already, they are
 * forgotten, never deleted in another context). The ad goes on, its clock and events too,
 * drawing nothing until launchad_attach_gl with the new context. LAUNCHAD_ERROR_INVALID_STATE
 * without a GL attach. */
int launchad_detach_gl(launchad *ad);

#ifdef __cplusplus
}
#endif

#endif
