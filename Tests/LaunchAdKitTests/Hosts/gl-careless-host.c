/* A host that uses OpenGL carelessly but legally, for GLCarelessHostTests: each mode does one
 * thing an application may do to its own context while an ad is attached, and prints what the
 * ad then did to it, one "host ..." line per fact.
 *
 *   gl-careless-host MODE CLIP
 *   delete-current-program  core 3.2: glUseProgram(p); glDeleteProgram(p) (p lives while current)
 *   reuse-names             2.1 compatibility: texture and buffer names 1..64 deleted, then
 *                           objects of the host's own made under fixed names (legal there)
 *   huge-viewport           core 3.2: glViewport 16384x16384 over a 640x360 framebuffer
 *   other-glx-context       GLX (DISPLAY): renders and the destroy with another context current
 */
#define _GNU_SOURCE
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <launchad.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int wake_pipe[2], first_frame;
static char warning[512];

static void on_event(void *user, const launchad_event *e) {
    (void)user;
    if (e->id == LAUNCHAD_EVENT_FIRST_FRAME) first_frame = 1;
    if (e->id == LAUNCHAD_EVENT_WARNING && e->message) snprintf(warning, sizeof warning, "%s", e->message);
}

static void on_wakeup(void *user) {
    (void)user;
    char b = 1;
    if (write(wake_pipe[1], &b, 1) < 0) return;
}

static void wait_for_wake(int ms) {
    struct pollfd fd = {wake_pipe[0], POLLIN, 0};
    char b[64];
    if (poll(&fd, 1, ms) > 0 && read(wake_pipe[0], b, sizeof b) < 0) return;
}

static void *egl_proc(void *ctx, const char *name) { (void)ctx; return (void *)eglGetProcAddress(name); }
static void *glx_proc(void *ctx, const char *name) { (void)ctx; return (void *)glXGetProcAddressARB((const GLubyte *)name); }

static int errors(void) {
    int n = 0;
    while (glGetError() != GL_NO_ERROR && n < 64) n++;
    return n;
}

/* A surfaceless EGL context (core 3.2, or 2.1 compatibility) with a 640x360 framebuffer bound. */
static void egl_context(int core) {
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!eglInitialize(dpy, NULL, NULL)) { printf("host no egl\n"); exit(3); }
    eglBindAPI(EGL_OPENGL_API);
    EGLint ca[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    eglChooseConfig(dpy, ca, &cfg, 1, &n);
    EGLint a[] = {EGL_CONTEXT_MAJOR_VERSION, core ? 3 : 2, EGL_CONTEXT_MINOR_VERSION, core ? 2 : 1, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                  core ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT, EGL_NONE};
    EGLContext c = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, a);
    if (c == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) { printf("host no context\n"); exit(3); }
    GLuint tex, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 640, 360, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glViewport(0, 0, 640, 360);
}

static launchad *start(const char *clip, void *(*proc)(void *, const char *)) {
    const char *args[] = {"play", clip, "--transition", "none"};
    int err = 0;
    launchad *ad = launchad_create(4, args, &err);
    if (!ad) { printf("host create %d\n", err); exit(3); }
    launchad_set_event_callback(ad, on_event, NULL);
    launchad_set_wakeup_callback(ad, on_wakeup, NULL);
    launchad_prepare(ad, 10);
    printf("host attach %d\n", launchad_attach_gl(ad, proc, NULL));
    launchad_present(ad);
    return ad;
}

/* Renders (as woken) until the first frame is drawn; whether it was within 10 s. */
static int first_drawn(launchad *ad) {
    for (int i = 0; i < 1000; i++) {
        int r = launchad_render(ad);
        if (r == LAUNCHAD_RENDER_DRAWN && first_frame) return 1;
        if (r < 0 || r == LAUNCHAD_RENDER_ENDED) return 0;
        wait_for_wake(10);
    }
    return 0;
}

/* `n` renders as woken; how many drew. */
static int renders(launchad *ad, int n) {
    int drawn = 0;
    for (int i = 0; i < n; i++) {
        wait_for_wake(40);
        drawn += launchad_render(ad) == LAUNCHAD_RENDER_DRAWN;
    }
    return drawn;
}

static GLuint program(void) {
    const char *vs = "#version 150\nin vec2 p; void main() { gl_Position = vec4(p, 0, 1); }";
    const char *fs = "#version 150\nout vec4 c; void main() { c = vec4(1); }";
    GLuint v = glCreateShader(GL_VERTEX_SHADER), f = glCreateShader(GL_FRAGMENT_SHADER);
    glShaderSource(v, 1, &vs, NULL);
    glShaderSource(f, 1, &fs, NULL);
    glCompileShader(v);
    glCompileShader(f);
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    return p;
}

static int delete_current_program(const char *clip) {
    egl_context(1);
    launchad *ad = start(clip, egl_proc);
    printf("host first frame %d\n", first_drawn(ad));
    GLuint p = program();
    glUseProgram(p);
    glDeleteProgram(p);
    int drawn = renders(ad, 10);
    GLint current = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &current);
    printf("host program kept %d errors %d drawn %d\n", current == (GLint)p && glIsProgram(p), errors(), drawn);
    printf("host warning %s\n", warning);
    glUseProgram(0); /* now it goes, and the ad draws again */
    printf("host after drawn %d errors %d\n", renders(ad, 10), errors());
    launchad_destroy(ad);
    return 0;
}

static int reuse_names(const char *clip) {
    egl_context(0);
    GLint fb_tex = 0;
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &fb_tex);
    launchad *ad = start(clip, egl_proc);
    printf("host first frame %d\n", first_drawn(ad));
    for (GLuint n = 1; n <= 64; n++) {
        if ((GLint)n != fb_tex) glDeleteTextures(1, &n);
        glDeleteBuffers(1, &n);
    }
    /* The host's own, under names the ad had: textures 2048x2048 of 0x7F, a buffer of 4096 0x7F. */
    enum { S = 2048 };
    unsigned char *fill = malloc((size_t)S * S * 4);
    memset(fill, 0x7F, (size_t)S * S * 4);
    for (GLuint n = 1; n <= 5; n++) {
        if ((GLint)n == fb_tex) continue;
        glBindTexture(GL_TEXTURE_2D, n);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, S, S, 0, GL_RGBA, GL_UNSIGNED_BYTE, fill);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    for (GLuint n = 1; n <= 3; n++) {
        glBindBuffer(GL_ARRAY_BUFFER, n);
        glBufferData(GL_ARRAY_BUFFER, 4096, fill, GL_STATIC_DRAW);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    int drawn = renders(ad, 20);
    int left = errors();
    int intact = 0, objects = 0;
    GLuint read;
    glGenFramebuffers(1, &read);
    for (GLuint n = 1; n <= 5; n++) {
        if ((GLint)n == fb_tex) continue;
        objects++;
        GLint w = 0;
        glBindTexture(GL_TEXTURE_2D, n);
        glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
        glBindFramebuffer(GL_FRAMEBUFFER, read);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, n, 0);
        unsigned char px[4] = {0};
        glReadPixels(10, 10, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        intact += w == S && px[0] == 0x7F && px[3] == 0x7F;
    }
    for (GLuint n = 1; n <= 3; n++) {
        objects++;
        GLint size = 0;
        unsigned char first[4] = {0};
        glBindBuffer(GL_ARRAY_BUFFER, n);
        glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
        glGetBufferSubData(GL_ARRAY_BUFFER, 0, 4, first);
        intact += size == 4096 && first[0] == 0x7F;
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    printf("host drawn %d errors %d intact %d of %d\n", drawn, left, intact, objects);
    launchad_destroy(ad);
    int alive = 0;
    for (GLuint n = 1; n <= 5; n++) alive += (GLint)n != fb_tex && glIsTexture(n);
    for (GLuint n = 1; n <= 3; n++) alive += glIsBuffer(n);
    printf("host after destroy alive %d of %d\n", alive, objects);
    free(fill);
    return 0;
}

static int huge_viewport(const char *clip) {
    egl_context(1);
    launchad *ad = start(clip, egl_proc);
    printf("host first frame %d\n", first_drawn(ad));
    glViewport(0, 0, 16384, 16384);
    int drawn = renders(ad, 3);
    GLint vp[4];
    glGetIntegerv(GL_VIEWPORT, vp);
    printf("host huge drawn %d errors %d viewport %dx%d\n", drawn, errors(), vp[2], vp[3]);
    printf("host warning %s\n", warning);
    glViewport(0, 0, 640, 360);
    printf("host after drawn %d\n", renders(ad, 5));
    launchad_destroy(ad);
    return 0;
}

static int other_glx_context(const char *clip) {
    Display *d = XOpenDisplay(NULL);
    if (!d) { printf("host no display\n"); return 3; }
    int attrs[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, None};
    XVisualInfo *vi = glXChooseVisual(d, DefaultScreen(d), attrs);
    if (!vi) { printf("host no visual\n"); return 3; }
    XSetWindowAttributes swa = {.colormap = XCreateColormap(d, RootWindow(d, vi->screen), vi->visual, AllocNone)};
    Window w = XCreateWindow(d, RootWindow(d, vi->screen), 0, 0, 320, 180, 0, vi->depth, InputOutput, vi->visual, CWColormap, &swa);
    Window w2 = XCreateWindow(d, RootWindow(d, vi->screen), 0, 0, 64, 64, 0, vi->depth, InputOutput, vi->visual, CWColormap, &swa);
    XMapWindow(d, w);
    XMapWindow(d, w2);
    XSync(d, False);
    GLXContext own = glXCreateContext(d, vi, NULL, True), other = glXCreateContext(d, vi, NULL, True);
    glXMakeCurrent(d, w, own);
    launchad *ad = start(clip, glx_proc);
    printf("host first frame %d\n", first_drawn(ad));
    glXMakeCurrent(d, w2, other);
    GLuint textures[8], buffers[8], programs[8];
    glGenTextures(8, textures);
    glGenBuffers(8, buffers);
    for (int i = 0; i < 8; i++) {
        glBindTexture(GL_TEXTURE_2D, textures[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glBindBuffer(GL_ARRAY_BUFFER, buffers[i]);
        glBufferData(GL_ARRAY_BUFFER, 16, NULL, GL_STATIC_DRAW);
        programs[i] = glCreateProgram();
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glClearColor(0.125f, 0.625f, 0.25f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    int drawn = renders(ad, 5);
    unsigned char px[4] = {0};
    glReadPixels(32, 32, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    printf("host other drawn %d errors %d pixel %02x%02x%02x\n", drawn, errors(), px[0], px[1], px[2]);
    printf("host warning %s\n", warning);
    launchad_destroy(ad);
    int alive = 0;
    for (int i = 0; i < 8; i++) alive += glIsTexture(textures[i]) + glIsBuffer(buffers[i]) + glIsProgram(programs[i]);
    printf("host other objects alive %d of 24\n", alive);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3 || pipe(wake_pipe) != 0) return 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(argv[1], "delete-current-program")) return delete_current_program(argv[2]);
    if (!strcmp(argv[1], "reuse-names")) return reuse_names(argv[2]);
    if (!strcmp(argv[1], "huge-viewport")) return huge_viewport(argv[2]);
    if (!strcmp(argv[1], "other-glx-context")) return other_glx_context(argv[2]);
    return 2;
}
