/* gtk4-host: a GTK 4 application that shows its launch ad in its window's content area, below
 * its header bar, through launchad.h.
 *
 *     gtk4-host [--buffer] FILE [launchad play options...]
 *
 * A 1280x800 window with a GtkHeaderBar titled "LaunchAd GTK host"; its content area is the
 * application's green (#20A040). The ad plays in that area: by default in a GtkGLArea
 * (launchad_attach_gl: the ad draws into the area's own framebuffer, the picture converted on
 * the GPU), with --buffer into a pixel buffer shown as a GdkMemoryTexture in a GtkPicture
 * (launchad_attach_buffer). Clicks, the Escape, M and space keys, the window's focus, its
 * minimizing and its close button are passed to the ad; one line is printed per event
 * ("event first_frame", "event end completed", "event error CODE: MESSAGE"). When the ad ends
 * the content area is green again for one second, and the application exits 0. SIGTERM
 * (its own handler, g_unix_signal_add) ends the ad at once and exits 0.
 *
 * The ad is prepared without blocking the main loop: launchad_prepare(ad, 0) starts it and
 * returns; the READY event says when it is ready, and the ad is attached and presented then.
 * The wake-up callback comes from the library's threads: it only adds an idle source to the
 * main loop, which delivers the events (before the attach), queues a render of the GL area, or
 * renders the buffer. Built by scripts/build-examples.sh. */
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <epoxy/glx.h>
#include <glib-unix.h>
#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#include <launchad.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    GMainLoop *loop;
    GtkWidget *window, *content, *view; /* view: the GtkGLArea, or the GtkPicture */
    gboolean buffer_mode;
    launchad *ad;
    gboolean ready, attached, presented, ending, quitting, done, minimized;
    atomic_int wake_pending;
    int buffer_w, buffer_h;
    guint tick;
} Host;

/* GL functions for the library: GDK's GL is EGL on Wayland and on X11 unless it uses GLX. */
static void *get_proc_address(void *ctx, const char *name) {
    (void)ctx;
#ifdef GDK_WINDOWING_X11
    GdkDisplay *display = gdk_display_get_default();
    if (GDK_IS_X11_DISPLAY(display) && !gdk_x11_display_get_egl_display(display))
        return (void *)glXGetProcAddressARB((const GLubyte *)name);
#endif
    return (void *)eglGetProcAddress(name);
}

static void finish_ad(Host *h);

static gboolean attach_soon(gpointer data);

static void on_event(void *user, const launchad_event *e) {
    Host *h = user;
    if (e->id == LAUNCHAD_EVENT_END) printf("event end %s\n", e->outcome_name);
    else if (e->error_code) printf("event %s %s: %s\n", e->name, e->error_code, e->message ? e->message : "");
    else printf("event %s\n", e->name);
    fflush(stdout);
    /* READY (prepared on the library's threads): attach from the main loop, not from inside
     * the callback. */
    if (e->id == LAUNCHAD_EVENT_READY && !h->ready) {
        h->ready = TRUE;
        g_timeout_add(0, attach_soon, h);
    }
    if (e->id == LAUNCHAD_EVENT_END) h->ending = TRUE;
}

/* From any thread: only wakes the main loop. */
static gboolean on_wake_main(gpointer data);
static void on_wakeup(void *user) {
    Host *h = user;
    if (!atomic_exchange(&h->wake_pending, 1)) g_idle_add(on_wake_main, h);
}

/* The application's own content: its green. */
static void clear_green(void) {
    glClearColor(0x20 / 255.0f, 0xA0 / 255.0f, 0x40 / 255.0f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
}

/* The buffer path: a turn, and the frame shown as a texture when one was drawn. */
static void render_buffer(Host *h) {
    if (!h->attached) return;
    int r = launchad_render(h->ad);
    if (r == LAUNCHAD_RENDER_DRAWN) {
        const void *pixels;
        int w, h2, pitch;
        if (launchad_frame(h->ad, &pixels, &w, &h2, &pitch) == LAUNCHAD_OK) {
            /* 32-bit ARGB words, so bytes B, G, R, A in memory; opaque (alpha 255, or 253-254
             * where SDL blended: shown as premultiplied, the same to the eye). */
            GBytes *bytes = g_bytes_new(pixels, (gsize)pitch * h2);
            GdkTexture *t = gdk_memory_texture_new(w, h2, GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, pitch);
            gtk_picture_set_paintable(GTK_PICTURE(h->view), GDK_PAINTABLE(t));
            g_object_unref(t);
            g_bytes_unref(bytes);
        }
    } else if (r == LAUNCHAD_RENDER_ENDED || r < 0) {
        finish_ad(h);
    }
}

/* The buffer path renders every 10 ms (a frame clock's tick stops while the window is
 * minimized; the ad's clock must not). A turn with nothing new costs next to nothing. */
static gboolean on_tick(gpointer data) {
    Host *h = data;
    render_buffer(h);
    if (!h->attached) h->tick = 0;
    return h->attached ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* A minimized or hidden window: GTK renders nothing, so the ad is turned here, with no GL
 * context current: its clock, pause and events go on, nothing is drawn (IDLE). */
static void hidden_turn(Host *h) {
    gdk_gl_context_clear_current();
    int r = launchad_render(h->ad);
    if (r == LAUNCHAD_RENDER_ENDED || r < 0) finish_ad(h);
}

static gboolean on_wake_main(gpointer data) {
    Host *h = data;
    atomic_store(&h->wake_pending, 0);
    if (!h->ad) return G_SOURCE_REMOVE;
    if (!h->attached) launchad_poll_events(h->ad); /* READY, or an END without an ad */
    else if (h->buffer_mode) render_buffer(h);
    /* A minimized window stays mapped in GTK's eyes, and renders nothing. */
    else if (gtk_widget_get_mapped(h->view) && !h->minimized) gtk_gl_area_queue_render(GTK_GL_AREA(h->view));
    else hidden_turn(h);
    if (h->ending && !h->attached && h->ad) finish_ad(h);
    return G_SOURCE_REMOVE;
}

/* GtkGLArea's render: its context current, its framebuffer bound, the viewport its size. */
static gboolean on_render(GtkGLArea *area, GdkGLContext *context, gpointer data) {
    (void)area, (void)context;
    Host *h = data;
    int r = h->attached ? launchad_render(h->ad) : LAUNCHAD_RENDER_IDLE;
    if (r == LAUNCHAD_RENDER_DRAWN) return TRUE;
    if (r == LAUNCHAD_RENDER_ENDED || r < 0) finish_ad(h); /* the context is current: the ad's GL objects go */
    clear_green();
    return TRUE;
}

static void print_content(Host *h) {
    graphene_point_t p;
    double sx = 0, sy = 0;
    if (!gtk_widget_compute_point(h->content, h->window, &GRAPHENE_POINT_INIT(0, 0), &p)) return;
    gtk_native_get_surface_transform(GTK_NATIVE(h->window), &sx, &sy);
    printf("content %dx%d+%d+%d scale %d\n", gtk_widget_get_width(h->content), gtk_widget_get_height(h->content),
           (int)(p.x + sx), (int)(p.y + sy), gtk_widget_get_scale_factor(h->content));
    fflush(stdout);
}

/* Attaches once the ad is ready and the view can take it (realized, or allocated). */
static void try_attach(Host *h) {
    if (!h->ad || !h->ready || h->attached || h->done) return;
    int error;
    if (h->buffer_mode) {
        int scale = gtk_widget_get_scale_factor(h->view);
        h->buffer_w = gtk_widget_get_width(h->view) * scale, h->buffer_h = gtk_widget_get_height(h->view) * scale;
        if (h->buffer_w <= 0 || h->buffer_h <= 0) return; /* not allocated yet: the next tick */
        error = launchad_attach_buffer(h->ad, h->buffer_w, h->buffer_h);
    } else {
        if (!gtk_widget_get_realized(h->view)) return; /* realize attaches */
        gtk_gl_area_make_current(GTK_GL_AREA(h->view));
        if (gtk_gl_area_get_error(GTK_GL_AREA(h->view))) {
            fprintf(stderr, "gtk4-host: no GL context: %s\n", gtk_gl_area_get_error(GTK_GL_AREA(h->view))->message);
            error = LAUNCHAD_ERROR_RENDER;
        } else {
            error = launchad_attach_gl(h->ad, get_proc_address, NULL);
        }
    }
    if (error != LAUNCHAD_OK) {
        fprintf(stderr, "gtk4-host: %s\n", launchad_strerror(error));
        launchad_dismiss(h->ad);
        finish_ad(h);
        return;
    }
    h->attached = TRUE;
    print_content(h);
    if (!h->presented) launchad_present(h->ad), h->presented = TRUE;
    if (h->buffer_mode) h->tick = g_timeout_add(10, on_tick, h);
    else gtk_gl_area_queue_render(GTK_GL_AREA(h->view));
}

/* Until the view can take the ad (the buffer needs the widget's first allocation; the GL
 * area attaches in its realize), asked again every 20 ms. */
static gboolean attach_soon(gpointer data) {
    Host *h = data;
    try_attach(h);
    if (h->attached || h->done || !h->ad || (!h->buffer_mode && !gtk_widget_get_realized(h->view))) return G_SOURCE_REMOVE;
    g_timeout_add(20, attach_soon, h);
    return G_SOURCE_REMOVE;
}

static gboolean quit_now(gpointer data) {
    g_main_loop_quit(((Host *)data)->loop);
    return G_SOURCE_REMOVE;
}

/* The ad is over: destroyed (in GL mode with the area's context current), and the content
 * area the application's again, green for one second. */
static void finish_ad(Host *h) {
    if (!h->ad) return;
    if (!h->buffer_mode && gtk_widget_get_realized(h->view)) gtk_gl_area_make_current(GTK_GL_AREA(h->view));
    launchad_destroy(h->ad);
    h->ad = NULL;
    h->attached = FALSE;
    h->done = TRUE;
    if (h->tick) g_source_remove(h->tick), h->tick = 0;
    if (h->buffer_mode) gtk_picture_set_paintable(GTK_PICTURE(h->view), NULL);
    else gtk_gl_area_queue_render(GTK_GL_AREA(h->view));
    g_timeout_add(h->quitting ? 0 : 1000, quit_now, h);
}

/* The application's SIGTERM: the ad ends now, the application quits. If no frame comes to
 * deliver the end (a minimized window renders nothing), the ad is destroyed after 2 s anyway. */
static gboolean ad_overdue(gpointer data) {
    finish_ad(data);
    return G_SOURCE_REMOVE;
}
static gboolean on_sigterm(gpointer data) {
    Host *h = data;
    printf("sigterm\n");
    fflush(stdout);
    h->quitting = TRUE;
    if (!h->ad) return (g_main_loop_quit(h->loop), G_SOURCE_REMOVE);
    if (!h->attached) return (finish_ad(h), G_SOURCE_REMOVE);
    launchad_dismiss(h->ad);
    on_wakeup(h);
    g_timeout_add(2000, ad_overdue, h);
    return G_SOURCE_REMOVE;
}

static void on_realize(GtkWidget *w, gpointer data) {
    (void)w;
    try_attach(data);
}

/* The area's context is going (the widget leaves its window): the ad lets go of it, and
 * attaches to the new one at the next realize. */
static void on_unrealize(GtkWidget *w, gpointer data) {
    Host *h = data;
    if (!h->ad || !h->attached) return;
    gtk_gl_area_make_current(GTK_GL_AREA(w));
    launchad_detach_gl(h->ad);
    h->attached = FALSE;
}

/* A click released at (x, y) in the view: in the buffer's or the framebuffer's pixels. */
static void on_click(GtkGestureClick *g, int n, double x, double y, gpointer data) {
    (void)g, (void)n;
    Host *h = data;
    if (!h->attached) return;
    double sx = h->buffer_mode ? (double)h->buffer_w / gtk_widget_get_width(h->view) : gtk_widget_get_scale_factor(h->view);
    double sy = h->buffer_mode ? (double)h->buffer_h / gtk_widget_get_height(h->view) : gtk_widget_get_scale_factor(h->view);
    launchad_input(h->ad, LAUNCHAD_INPUT_POINTER_UP, x * sx, y * sy);
    on_wakeup(h);
}

static gboolean on_key(GtkEventControllerKey *k, guint keyval, guint code, GdkModifierType state, gpointer data) {
    (void)k, (void)code, (void)state;
    Host *h = data;
    if (!h->ad) return FALSE;
    if (keyval == GDK_KEY_Escape) launchad_input(h->ad, LAUNCHAD_INPUT_KEY_ESCAPE, 0, 0);
    else if (keyval == GDK_KEY_m) launchad_input(h->ad, LAUNCHAD_INPUT_KEY_MUTE, 0, 0);
    else if (keyval == GDK_KEY_space) launchad_input(h->ad, LAUNCHAD_INPUT_KEY_PAUSE, 0, 0);
    else return FALSE;
    on_wakeup(h);
    return TRUE;
}

static void on_active(GObject *o, GParamSpec *p, gpointer data) {
    (void)p;
    Host *h = data;
    if (!h->ad) return;
    launchad_input(h->ad, gtk_window_is_active(GTK_WINDOW(o)) ? LAUNCHAD_INPUT_FOCUS_GAINED : LAUNCHAD_INPUT_FOCUS_LOST, 0, 0);
    on_wakeup(h);
}

static void on_surface_state(GObject *o, GParamSpec *p, gpointer data) {
    (void)p;
    Host *h = data;
    gboolean now = (gdk_toplevel_get_state(GDK_TOPLEVEL(o)) & GDK_TOPLEVEL_STATE_MINIMIZED) != 0;
    if (now == h->minimized) return;
    h->minimized = now;
    if (!h->ad) return;
    launchad_input(h->ad, now ? LAUNCHAD_INPUT_MINIMIZED : LAUNCHAD_INPUT_RESTORED, 0, 0);
    on_wakeup(h);
}

static void on_window_realize(GtkWidget *w, gpointer data) {
    g_signal_connect(gtk_native_get_surface(GTK_NATIVE(w)), "notify::state", G_CALLBACK(on_surface_state), data);
}

/* The close button while the ad plays: the ad ends (as skipped, via close), then the app. */
static gboolean on_close(GtkWindow *w, gpointer data) {
    (void)w;
    Host *h = data;
    if (!h->ad) return (g_main_loop_quit(h->loop), FALSE);
    launchad_input(h->ad, LAUNCHAD_INPUT_CLOSE, 0, 0);
    on_wakeup(h);
    return TRUE;
}

static void build_window(Host *h) {
    h->window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(h->window), 1280, 800);
    GtkWidget *bar = gtk_header_bar_new();
    gtk_header_bar_set_title_widget(GTK_HEADER_BAR(bar), gtk_label_new("LaunchAd GTK host"));
    gtk_window_set_titlebar(GTK_WINDOW(h->window), bar);
    GtkCssProvider *css = gtk_css_provider_new();
    gtk_css_provider_load_from_data(css, ".launch-screen { background-color: #20A040; }", -1);
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css), GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(css);
    h->content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_widget_add_css_class(h->content, "launch-screen");
    if (h->buffer_mode) {
        h->view = gtk_picture_new();
        gtk_picture_set_can_shrink(GTK_PICTURE(h->view), TRUE);
        gtk_picture_set_content_fit(GTK_PICTURE(h->view), GTK_CONTENT_FIT_FILL);
    } else {
        h->view = gtk_gl_area_new();
        gtk_gl_area_set_auto_render(GTK_GL_AREA(h->view), FALSE); /* rendered when the ad wakes us */
        g_signal_connect(h->view, "render", G_CALLBACK(on_render), h);
        g_signal_connect(h->view, "realize", G_CALLBACK(on_realize), h);
        g_signal_connect(h->view, "unrealize", G_CALLBACK(on_unrealize), h);
    }
    gtk_widget_set_hexpand(h->view, TRUE);
    gtk_widget_set_vexpand(h->view, TRUE);
    gtk_box_append(GTK_BOX(h->content), h->view);
    gtk_window_set_child(GTK_WINDOW(h->window), h->content);
    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "released", G_CALLBACK(on_click), h);
    gtk_widget_add_controller(h->view, GTK_EVENT_CONTROLLER(click));
    GtkEventController *keys = gtk_event_controller_key_new();
    g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key), h);
    gtk_widget_add_controller(h->window, keys);
    g_signal_connect(h->window, "notify::is-active", G_CALLBACK(on_active), h);
    g_signal_connect(h->window, "realize", G_CALLBACK(on_window_realize), h);
    g_signal_connect(h->window, "close-request", G_CALLBACK(on_close), h);
}

int main(int argc, char **argv) {
    Host host = {0}, *h = &host;
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "--buffer") == 0) h->buffer_mode = TRUE, first = 2;
    if (first >= argc) {
        fprintf(stderr, "usage: gtk4-host [--buffer] FILE [launchad play options...]\n");
        return 2;
    }
    gtk_init();
    h->loop = g_main_loop_new(NULL, FALSE);
    g_unix_signal_add(SIGTERM, on_sigterm, h);
    build_window(h);
    gtk_window_present(GTK_WINDOW(h->window));

    /* The launch ad: `launchad play FILE ...`, prepared while the window shows. */
    const char *args[64] = {"play"};
    int n = 1;
    for (int i = first; i < argc && n < 64; i++) args[n++] = argv[i];
    int error = 0;
    h->ad = launchad_create(n, args, &error);
    if (!h->ad) {
        fprintf(stderr, "gtk4-host: %s: %s\n", launchad_strerror(error), launchad_last_usage_error());
        return 1;
    }
    launchad_set_event_callback(h->ad, on_event, h);
    launchad_set_wakeup_callback(h->ad, on_wakeup, h);
    /* Starts it and returns: READY (or END, with nothing to show, or FFmpeg missing) follows. */
    launchad_prepare(h->ad, 0);
    g_main_loop_run(h->loop);
    if (h->ad) finish_ad(h);
    gtk_window_destroy(GTK_WINDOW(h->window));
    g_main_loop_unref(h->loop);
    return 0;
}
