/* x11-host: a plain Xlib application (no SDL) that shows its launch ad in its own window
 * through launchad.h, by the window's X11 id.
 *
 *     x11-host FILE [launchad play options...]
 *
 * A 1280x720 window titled "x11-host", filled with the application's blue (#2040A0). At start
 * it shows the launch ad FILE in that window (launchad_attach_x11), prints one line per event
 * it receives ("event first_frame", "event end completed", ...), and when the ad ends draws
 * its own blue again for one second and exits 0. GTK, Qt and Tk applications do the same with
 * their window's X11 id. Built by scripts/build-examples.sh. */
#define _POSIX_C_SOURCE 200809L
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <launchad.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int wake_pipe[2];

/* Set by the READY event (or the END, when there is nothing to show): the ad can be presented. */
static int settled;

static void on_event(void *user, const launchad_event *e) {
    (void)user;
    switch (e->kind) {
    case LAUNCHAD_EVENT_END: printf("event end %s\n", e->outcome_name); settled = 1; break;
    case LAUNCHAD_EVENT_READY: printf("event ready\n"); settled = 1; break;
    case LAUNCHAD_EVENT_ERROR: printf("event error %s %s\n", e->error_code, e->message); break;
    default: printf("event %s\n", e->name);
    }
    fflush(stdout);
}

/* From any thread: only wakes the loop below (a byte down a pipe it polls). */
static void on_wakeup(void *user) {
    (void)user;
    char byte = 1;
    ssize_t written = write(wake_pipe[1], &byte, 1);
    (void)written; /* a full pipe already wakes the loop */
}

static void draw_blue(Display *d, Window w, GC gc) {
    XFillRectangle(d, w, gc, 0, 0, 1280, 720);
    XFlush(d);
}

/* The application's own events, told to the ad. */
static void forward(launchad *ad, XEvent *ev, Atom close_atom) {
    switch (ev->type) {
    case ButtonRelease: launchad_input(ad, LAUNCHAD_INPUT_POINTER_UP, ev->xbutton.x, ev->xbutton.y); break;
    case KeyPress: {
        KeySym sym = XLookupKeysym(&ev->xkey, 0);
        if (sym == XK_Escape) launchad_input(ad, LAUNCHAD_INPUT_KEY_ESCAPE, 0, 0);
        if (sym == XK_m) launchad_input(ad, LAUNCHAD_INPUT_KEY_MUTE, 0, 0);
        break;
    }
    case FocusOut: launchad_input(ad, LAUNCHAD_INPUT_FOCUS_LOST, 0, 0); break;
    case FocusIn: launchad_input(ad, LAUNCHAD_INPUT_FOCUS_GAINED, 0, 0); break;
    case UnmapNotify: launchad_input(ad, LAUNCHAD_INPUT_HIDDEN, 0, 0); break;
    case MapNotify: launchad_input(ad, LAUNCHAD_INPUT_SHOWN, 0, 0); break;
    case ClientMessage:
        if ((Atom)ev->xclient.data.l[0] == close_atom) launchad_input(ad, LAUNCHAD_INPUT_CLOSE, 0, 0);
        break;
    }
}

/* Waits up to `ms` for an X event or a wake-up, emptying the pipe. */
static void wait_for_work(Display *d, int ms) {
    if (XPending(d) > 0) return;
    struct pollfd fds[2] = {{ConnectionNumber(d), POLLIN, 0}, {wake_pipe[0], POLLIN, 0}};
    if (poll(fds, 2, ms) > 0 && (fds[1].revents & POLLIN)) {
        char bytes[64];
        ssize_t got = read(wake_pipe[0], bytes, sizeof bytes);
        (void)got;
    }
}

static int show_ad(Display *d, Window w, Atom close_atom, int argc, char **argv) {
    const char *args[64] = {"play"};
    int n = 1;
    for (int i = 1; i < argc && n < 64; i++) args[n++] = argv[i];
    int error = 0;
    launchad *ad = launchad_create(n, args, &error);
    if (!ad) {
        fprintf(stderr, "x11-host: %s: %s\n", launchad_strerror(error), launchad_last_usage_error());
        return 1;
    }
    launchad_set_event_callback(ad, on_event, NULL);
    launchad_set_wakeup_callback(ad, on_wakeup, NULL);
    /* Prepared on the ad's own threads: the window keeps answering (and stays blue) until the
     * READY event says the first picture is decoded. */
    launchad_prepare(ad, 0);
    while (!settled) {
        while (XPending(d) > 0) {
            XEvent ev;
            XNextEvent(d, &ev);
            forward(ad, &ev, close_atom);
        }
        launchad_poll_events(ad);
        if (!settled) wait_for_work(d, 100);
    }
    error = launchad_attach_x11(ad, w);
    if (error != LAUNCHAD_OK) {
        fprintf(stderr, "x11-host: %s\n", launchad_strerror(error));
        launchad_destroy(ad);
        return 1;
    }
    launchad_present(ad);
    for (;;) {
        while (XPending(d) > 0) {
            XEvent ev;
            XNextEvent(d, &ev);
            forward(ad, &ev, close_atom);
        }
        int result = launchad_render(ad);
        if (result == LAUNCHAD_RENDER_ENDED || result < 0) break;
        if (result != LAUNCHAD_RENDER_DRAWN) wait_for_work(d, 10);
    }
    launchad_destroy(ad);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: x11-host FILE [launchad play options...]\n");
        return 2;
    }
    Display *d = XOpenDisplay(NULL);
    if (!d || pipe(wake_pipe) != 0) {
        fprintf(stderr, "x11-host: cannot open the display (set DISPLAY)\n");
        return 1;
    }
    int screen = DefaultScreen(d);
    XColor blue = {.red = 0x2020, .green = 0x4040, .blue = 0xA0A0, .flags = DoRed | DoGreen | DoBlue};
    XAllocColor(d, DefaultColormap(d, screen), &blue);
    Window w = XCreateSimpleWindow(d, RootWindow(d, screen), 0, 0, 1280, 720, 0, blue.pixel, blue.pixel);
    XStoreName(d, w, "x11-host");
    Atom close_atom = XInternAtom(d, "WM_DELETE_WINDOW", False);
    XSetWMProtocols(d, w, &close_atom, 1);
    XSelectInput(d, w, ExposureMask | ButtonReleaseMask | KeyPressMask | FocusChangeMask | StructureNotifyMask);
    GC gc = XCreateGC(d, w, 0, NULL);
    XSetForeground(d, gc, blue.pixel);
    XMapWindow(d, w);
    for (XEvent ev;;) { /* shown and ready to draw on */
        XNextEvent(d, &ev);
        if (ev.type == Expose) break;
    }
    draw_blue(d, w, gc);

    int status = show_ad(d, w, close_atom, argc, argv);

    /* The application's own window again. */
    struct timespec frame = {0, 16 * 1000 * 1000};
    for (int i = 0; status == 0 && i < 60; i++) {
        while (XPending(d) > 0) {
            XEvent ev;
            XNextEvent(d, &ev);
        }
        draw_blue(d, w, gc);
        nanosleep(&frame, NULL);
    }
    XFreeGC(d, gc);
    XDestroyWindow(d, w);
    XCloseDisplay(d);
    return status;
}
