/* gl-host: the smallest OpenGL host of launchad_attach_gl, with no toolkit and no display: an
 * EGL context (Mesa's surfaceless platform, or the X11 display $DISPLAY names when that is
 * asked), a framebuffer object of its own, and the ad drawn into it from launchad_render. It is
 * what GtkGLArea and QOpenGLWidget do for their applications, written out; the tests, the leak
 * check (scripts/embed-leak-check.sh) and the benchmarks drive it.
 *
 *     gl-host [options] FILE [launchad play options...]
 *
 *   --api gl|core|gles     the context: OpenGL compatibility (default), core profile, or ES
 *   --version M.m          the version asked for (default: 3.2 core, 2.1 compatibility, 3.0 ES)
 *   --size WxH             the framebuffer (default 640x360)
 *   --viewport X,Y,W,H     draw the ad into this part of it (default: all of it)
 *   --resize WxH           a new framebuffer of this size once the first frame is drawn
 *   --check-state          set a known GL state before each render, read it after: any change
 *                          is printed ("state NAME: X -> Y"), and the exit status is 3
 *   --dump PREFIX          the framebuffer as PPM: PREFIX-first.ppm (first frame drawn),
 *                          PREFIX-resized.ppm (at the new size, 500 ms after it), PREFIX-last.ppm
 *                          (the last frame drawn)
 *   --wake-only            render only when the library's wake-up comes (else also every 10 ms)
 *   --repeat N             N ads one after the other in the same context (each destroyed)
 *   --detach-at-first-frame  launchad_detach_gl then launchad_attach_gl once the first frame is drawn
 *   --replace-context-at-first-frame  the context destroyed and another made without
 *                          launchad_detach_gl, then launchad_attach_gl with the new one (prints
 *                          "context replaced at the same address" or "elsewhere")
 *   --delete-names-at-first-frame  the host deletes every texture, program and buffer name from 1
 *                          to 64 in its context, the ad's among them (as a careless host's cleanup)
 *   --hostile              once the first frame is drawn, renders as a careless host would: three
 *                          with no context current, three with another context current (its
 *                          framebuffer then checked: "other context untouched"), then ten
 *                          frames each in a framebuffer of a new size; with --destroy-early,
 *                          the ad is then destroyed mid-play with no context current
 *
 * Prints "gl VERSION" once, "event NAME" per event ("event end OUTCOME", then "json LINE", the
 * end event's JSON line; an error's code and message after its name, a warning's message), "frame
 * WxH" for each new frame size drawn in, "renders N, M drawn" at each ad's end. Exit 0, 1 on failure, 3 when --check-state saw a change. */
#define _POSIX_C_SOURCE 200809L
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <launchad.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "state.h"

static int wake_pipe[2];
static int first_frame;

static void on_event(void *user, const launchad_event *e) {
    (void)user;
    if (e->id == LAUNCHAD_EVENT_END) printf("event end %s\njson %s\n", e->outcome_name, e->json);
    else if (e->error_code) printf("event %s %s: %s\n", e->name, e->error_code, e->message ? e->message : "");
    else if (e->message) printf("event %s: %s\n", e->name, e->message);
    else printf("event %s\n", e->name);
    if (e->id == LAUNCHAD_EVENT_FIRST_FRAME) first_frame = 1;
    fflush(stdout);
}

static void on_wakeup(void *user) {
    (void)user;
    char byte = 1;
    ssize_t written = write(wake_pipe[1], &byte, 1);
    (void)written;
}

static void wait_for_wake(int ms) {
    struct pollfd fd = {wake_pipe[0], POLLIN, 0};
    if (poll(&fd, 1, ms) > 0) {
        char bytes[64];
        ssize_t got = read(wake_pipe[0], bytes, sizeof bytes);
        (void)got;
    }
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *get_proc_address(void *ctx, const char *name) {
    (void)ctx;
    return (void *)eglGetProcAddress(name);
}

struct options {
    const char *api, *version, *dump;
    int width, height, resize_w, resize_h, check_state, wake_only, repeat, detach, hostile, destroy_early, replace, delete_names;
    int viewport[4];
};

static int parse(int argc, char **argv, struct options *o, int *first_arg) {
    *o = (struct options){.api = "gl", .width = 640, .height = 360, .repeat = 1};
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--check-state")) o->check_state = 1;
        else if (!strcmp(a, "--wake-only")) o->wake_only = 1;
        else if (!strcmp(a, "--detach-at-first-frame")) o->detach = 1;
        else if (!strcmp(a, "--hostile")) o->hostile = 1;
        else if (!strcmp(a, "--replace-context-at-first-frame")) o->replace = 1;
        else if (!strcmp(a, "--delete-names-at-first-frame")) o->delete_names = 1;
        else if (!strcmp(a, "--destroy-early")) o->destroy_early = 1;
        else if (!v) return -1;
        else if (!strcmp(a, "--api")) o->api = v, i++;
        else if (!strcmp(a, "--version")) o->version = v, i++;
        else if (!strcmp(a, "--dump")) o->dump = v, i++;
        else if (!strcmp(a, "--repeat")) o->repeat = atoi(v), i++;
        else if (!strcmp(a, "--size") && sscanf(v, "%dx%d", &o->width, &o->height) == 2) i++;
        else if (!strcmp(a, "--resize") && sscanf(v, "%dx%d", &o->resize_w, &o->resize_h) == 2) i++;
        else if (!strcmp(a, "--viewport") && sscanf(v, "%d,%d,%d,%d", &o->viewport[0], &o->viewport[1], &o->viewport[2], &o->viewport[3]) == 4) i++;
        else return -1;
    }
    *first_arg = i;
    return i < argc ? 0 : -1;
}

static EGLDisplay egl_display;
static EGLContext egl_context;
static EGLConfig egl_config;
static EGLint context_attrs[9];

/* An EGL context as --api and --version ask, current without a surface. */
static int make_context(const struct options *o) {
    EGLDisplay d = getenv("GL_HOST_X11") ? eglGetDisplay(EGL_DEFAULT_DISPLAY)
                                         : eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint major = 0, minor = 0;
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, &major, &minor)) return fprintf(stderr, "gl-host: no EGL display\n"), -1;
    int es = !strcmp(o->api, "gles"), core = !strcmp(o->api, "core");
    int want_major = es ? 3 : core ? 3 : 2, want_minor = es ? 0 : core ? 2 : 1;
    if (o->version) sscanf(o->version, "%d.%d", &want_major, &want_minor);
    if (!eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) return fprintf(stderr, "gl-host: no such API\n"), -1;
    EGLint config_attrs[] = {EGL_RENDERABLE_TYPE, es ? (want_major >= 3 ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_ES2_BIT) : EGL_OPENGL_BIT,
                             EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    egl_display = d;
    if (!eglChooseConfig(d, config_attrs, &config, 1, &n) || n < 1) return fprintf(stderr, "gl-host: no EGL config\n"), -1;
    EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, want_major, EGL_CONTEXT_MINOR_VERSION, want_minor,
                      es ? EGL_NONE : EGL_CONTEXT_OPENGL_PROFILE_MASK,
                      core ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT, EGL_NONE};
    memcpy(context_attrs, attrs, sizeof attrs);
    EGLContext c = eglCreateContext(d, config, EGL_NO_CONTEXT, attrs);
    egl_context = c;
    egl_config = config;
    if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c))
        return fprintf(stderr, "gl-host: cannot make a %s %d.%d context current\n", o->api, want_major, want_minor), -1;
    printf("gl %s\n", (const char *)glGetString(GL_VERSION));
    return 0;
}

/* The host's framebuffer: an RGBA8 texture in a framebuffer object, bound, the viewport set. */
static GLuint fbo, fbo_texture;
static void make_framebuffer(int w, int h, const int viewport[4]) {
    if (fbo) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glDeleteFramebuffers(1, &fbo);
        glDeleteTextures(1, &fbo_texture);
    }
    /* Storage from no buffer (--check-state leaves a pixel unpack buffer bound). */
    const char *version = (const char *)glGetString(GL_VERSION);
    if (strncmp(version, "OpenGL ES 2", 11) != 0) glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glGenTextures(1, &fbo_texture);
    glBindTexture(GL_TEXTURE_2D, fbo_texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, fbo_texture, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (viewport[2] > 0) glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    else glViewport(0, 0, w, h);
    /* The host's own colour where the ad does not draw: #20A040. */
    glClearColor(0x20 / 255.0f, 0xA0 / 255.0f, 0x40 / 255.0f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
}

/* The framebuffer as a PPM, top row first. */
static void dump(const char *prefix, const char *name, int w, int h) {
    if (!prefix) return;
    char path[4096];
    snprintf(path, sizeof path, "%s-%s.ppm", prefix, name);
    unsigned char *rgba = malloc((size_t)w * h * 4);
    GLint pack = 4;
    glGetIntegerv(GL_PACK_ALIGNMENT, &pack);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glPixelStorei(GL_PACK_ALIGNMENT, pack);
    FILE *f = fopen(path, "wb");
    if (f) {
        fprintf(f, "P6\n%d %d\n255\n", w, h);
        for (int y = h - 1; y >= 0; y--)
            for (int x = 0; x < w; x++) fwrite(rgba + ((size_t)y * w + x) * 4, 1, 3, f);
        fclose(f);
    }
    free(rgba);
}

/* A careless host: renders with no context current, then with another one current, then in a
 * framebuffer whose size changes at every frame. */
static void hostile(launchad *ad, int *w, int *h) {
    eglMakeCurrent(egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    for (int i = 0; i < 3; i++) launchad_render(ad);
    EGLint attrs[] = {EGL_NONE};
    EGLContext other = eglCreateContext(egl_display, egl_config, EGL_NO_CONTEXT, attrs);
    if (other != EGL_NO_CONTEXT && eglMakeCurrent(egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, other)) {
        GLuint t, f;
        glGenTextures(1, &t);
        glBindTexture(GL_TEXTURE_2D, t);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glGenFramebuffers(1, &f);
        glBindFramebuffer(GL_FRAMEBUFFER, f);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
        glViewport(0, 0, 64, 64);
        glClearColor(0x20 / 255.0f, 0xA0 / 255.0f, 0x40 / 255.0f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        for (int i = 0; i < 3; i++) launchad_render(ad);
        unsigned char px[4] = {0};
        glReadPixels(32, 32, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        printf("other context %s\n", px[0] == 0x20 && px[1] == 0xA0 && px[2] == 0x40 ? "untouched" : "drawn in");
        eglMakeCurrent(egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(egl_display, other);
    }
    eglMakeCurrent(egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl_context);
    for (int i = 0; i < 10; i++) {
        *w = i % 2 ? 640 : 480, *h = i % 2 ? 360 : 480;
        make_framebuffer(*w, *h, (int[4]){0, 0, 0, 0});
        while (launchad_render(ad) == LAUNCHAD_RENDER_IDLE) wait_for_wake(10);
    }
    fflush(stdout);
}

/* The context destroyed and another made in its place, the framebuffer made again. */
static void replace_context(int w, int h, const int viewport[4]) {
    EGLContext old = egl_context;
    eglMakeCurrent(egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(egl_display, old);
    egl_context = eglCreateContext(egl_display, egl_config, EGL_NO_CONTEXT, context_attrs);
    eglMakeCurrent(egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl_context);
    fbo = 0;
    host_program = host_sampler = host_vao = host_vbo = host_pbo = 0; /* --check-state's, made again */
    make_framebuffer(w, h, viewport);
    printf("context replaced %s\n", egl_context == old ? "at the same address" : "elsewhere");
    fflush(stdout);
}

static int play_one(const struct options *o, int n, const char **args, int *changed) {
    int error = 0;
    launchad *ad = launchad_create(n, args, &error);
    if (!ad) return fprintf(stderr, "gl-host: %s\n", launchad_last_usage_error()), -1;
    launchad_set_event_callback(ad, on_event, NULL);
    launchad_set_wakeup_callback(ad, on_wakeup, NULL);
    launchad_prepare(ad, 10);
    if ((error = launchad_attach_gl(ad, get_proc_address, NULL)) != LAUNCHAD_OK)
        return fprintf(stderr, "gl-host: attach_gl: %s\n", launchad_strerror(error)), launchad_destroy(ad), -1;
    launchad_present(ad);
    int w = o->width, h = o->height, dumped_first = 0, resized = !o->resize_w, dumped_resized = 0, detached = !o->detach;
    int last_w = 0, last_h = 0, hostile_done = 0, replaced = 0, renders = 0, drawn = 0;
    double resized_at = 0;
    struct gl_state known;
    for (;;) {
        if (o->check_state) state_set_known(&known);
        int result = launchad_render(ad);
        renders++, drawn += result == LAUNCHAD_RENDER_DRAWN;
        if (o->check_state) *changed += state_compare(&known);
        if (result == LAUNCHAD_RENDER_ENDED || result < 0) break;
        if (result == LAUNCHAD_RENDER_DRAWN) {
            GLint vp[4];
            glGetIntegerv(GL_VIEWPORT, vp);
            if (vp[2] != last_w || vp[3] != last_h) printf("frame %dx%d\n", last_w = vp[2], last_h = vp[3]), fflush(stdout);
            if (first_frame && !dumped_first) dump(o->dump, "first", w, h), dumped_first = 1;
            /* At the new size, once the fade-in (300 ms) is over. */
            else if (resized && !dumped_resized && o->resize_w && now_ms() - resized_at > 500) dump(o->dump, "resized", w, h), dumped_resized = 1;
            if (dumped_first && !resized) {
                make_framebuffer(w = o->resize_w, h = o->resize_h, (int[4]){0, 0, 0, 0});
                resized = 1;
                resized_at = now_ms();
            }
            if (dumped_first && o->hostile && !hostile_done) {
                hostile(ad, &w, &h);
                hostile_done = 1;
                if (o->destroy_early) {
                    eglMakeCurrent(egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
                    launchad_destroy(ad);
                    eglMakeCurrent(egl_display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl_context);
                    printf("destroyed with no context current\n");
                    return 0;
                }
            }
            if (dumped_first && o->replace && !replaced) {
                replace_context(w, h, o->viewport);
                if (launchad_attach_gl(ad, get_proc_address, NULL) != LAUNCHAD_OK) fprintf(stderr, "gl-host: attach again failed\n");
                replaced = 1;
            }
            if (dumped_first && o->delete_names && !replaced) {
                for (GLuint name = 1; name <= 64; name++) {
                    glDeleteTextures(1, &name);
                    glDeleteBuffers(1, &name);
                    if (glIsProgram(name)) glDeleteProgram(name);
                }
                while (glGetError() != GL_NO_ERROR) {}
                make_framebuffer(w, h, o->viewport); /* its own framebuffer's texture went too */
                replaced = 1;
            }
            if (dumped_first && !detached) {
                launchad_detach_gl(ad);
                if (launchad_attach_gl(ad, get_proc_address, NULL) != LAUNCHAD_OK) fprintf(stderr, "gl-host: attach again failed\n");
                detached = 1;
            }
            glFlush(); /* what a toolkit's swap does: the frame goes to the GPU */
        }
        /* Every render draws a whole frame: the next one when woken (or after 10 ms). */
        wait_for_wake(o->wake_only ? 5000 : 10);
    }
    dump(o->dump, "last", w, h);
    printf("renders %d, %d drawn\n", renders, drawn);
    launchad_destroy(ad);
    return 0;
}

int main(int argc, char **argv) {
    struct options o;
    int first = 0;
    if (parse(argc, argv, &o, &first) != 0) {
        fprintf(stderr, "usage: gl-host [--api gl|core|gles] [--version M.m] [--size WxH] [--viewport X,Y,W,H] [--resize WxH]\n"
                        "               [--check-state] [--dump PREFIX] [--wake-only] [--repeat N] [--detach-at-first-frame] FILE [options]\n");
        return 2;
    }
    if (pipe(wake_pipe) != 0 || make_context(&o) != 0) return 1;
    make_framebuffer(o.width, o.height, o.viewport);
    const char *args[64] = {"play"};
    int n = 1;
    for (int i = first; i < argc && n < 64; i++) args[n++] = argv[i];
    int changed = 0;
    for (int run = 0; run < o.repeat; run++) {
        first_frame = 0;
        if (play_one(&o, n, args, &changed) != 0) return 1;
    }
    if (o.check_state) printf("state %s\n", changed ? "changed" : "unchanged");
    return changed ? 3 : 0;
}
