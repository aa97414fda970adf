// qt6-host: a Qt 6 Widgets application that shows its launch ad in its main window's central
// widget, below its tool bar, through launchad.h.
//
//     qt6-host [--buffer] FILE [launchad play options...]
//
// A 1280x800 QMainWindow with a QToolBar ("LaunchAd Qt host"); its central widget is the
// application's green (#20A040). The ad plays there: by default in a QOpenGLWidget
// (launchad_attach_gl: the ad draws into the widget's own framebuffer from paintGL, the picture
// converted on the GPU), with --buffer into a pixel buffer painted as a QImage
// (launchad_attach_buffer). Clicks, the Escape, M and space keys, the window's focus, its
// minimizing and its close button are passed to the ad; one line is printed per event ("event
// first_frame", "event end completed", "event error CODE: MESSAGE"). When the ad ends the
// central widget is green again for one second and the application exits 0. SIGTERM (its own
// handler: a socket pair and a QSocketNotifier) ends the ad at once and exits 0.
//
// The ad is prepared without blocking the event loop: launchad_prepare(ad, 0) starts it and
// returns; the READY event says when it is ready, and the ad is attached and presented then. The
// wake-up callback comes from the library's threads: it only posts a call to the GUI thread,
// which delivers the events (before the attach), schedules a paint of the GL widget, or renders
// the buffer. No moc needed: no Q_OBJECT class. Built by scripts/build-examples.sh.
#include <QApplication>
#include <QImage>
#include <QKeyEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QPainter>
#include <QSocketNotifier>
#include <QTimer>
#include <QToolBar>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <launchad.h>
#include <sys/socket.h>
#include <unistd.h>

static const QColor green(0x20, 0xA0, 0x40);

struct Host {
    bool buffer_mode = false;
    QMainWindow *window = nullptr;
    QWidget *view = nullptr;
    launchad *ad = nullptr;
    bool ready = false, attached = false, presented = false, ending = false, quitting = false, done = false;
    std::atomic<bool> wake_pending{false};
    QImage frame;
    QTimer render_timer;

    void wake();
    void onWake();
    void tryAttach();
    void renderBuffer();
    void finish();
    void paintGL(QOpenGLFunctions *gl);
    void input(launchad_input_kind kind, double x = 0, double y = 0) {
        if (!ad) return;
        launchad_input(ad, kind, x, y);
        wake();
    }
};

static void *get_proc_address(void *ctx, const char *name) {
    return reinterpret_cast<void *>(static_cast<QOpenGLContext *>(ctx)->getProcAddress(name));
}

static void on_event(void *user, const launchad_event *e) {
    Host *h = static_cast<Host *>(user);
    if (e->id == LAUNCHAD_EVENT_END) std::printf("event end %s\n", e->outcome_name);
    else if (e->error_code) std::printf("event %s %s: %s\n", e->name, e->error_code, e->message ? e->message : "");
    else std::printf("event %s\n", e->name);
    std::fflush(stdout);
    // READY: attach from the event loop, not from inside the callback.
    if (e->id == LAUNCHAD_EVENT_READY && !h->ready) {
        h->ready = true;
        QTimer::singleShot(0, h->window, [h] { h->tryAttach(); });
    }
    if (e->id == LAUNCHAD_EVENT_END) h->ending = true;
}

// From any thread: only posts a call to the GUI thread.
static void on_wakeup(void *user) { static_cast<Host *>(user)->wake(); }
void Host::wake() {
    if (!wake_pending.exchange(true)) QMetaObject::invokeMethod(window, [this] { onWake(); }, Qt::QueuedConnection);
}

void Host::onWake() {
    wake_pending = false;
    if (!ad) return;
    if (!attached) {
        launchad_poll_events(ad);  // READY, or an END without an ad
    } else if (buffer_mode) {
        renderBuffer();
    } else if (!window->isMinimized() && view->isVisible()) {
        view->update();  // paintGL renders
    } else {
        // Minimized or hidden: Qt paints nothing, so the ad is turned here with no GL context
        // current: its clock, pause and events go on, nothing is drawn (IDLE).
        if (QOpenGLContext *c = QOpenGLContext::currentContext()) c->doneCurrent();
        int r = launchad_render(ad);
        if (r == LAUNCHAD_RENDER_ENDED || r < 0) finish();
    }
    if (ending && !attached && ad) finish();
}

// The GL view: the ad draws into the widget's framebuffer from paintGL.
class GLView : public QOpenGLWidget, protected QOpenGLFunctions {
public:
    explicit GLView(Host *h) : host(h) {}

protected:
    void initializeGL() override {
        initializeOpenGLFunctions();
        // The context is going (the widget moves to another window): the ad lets go of it,
        // and attaches to the new one in the next initializeGL.
        connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
            if (!host->ad || !host->attached) return;
            makeCurrent();
            launchad_detach_gl(host->ad);
            host->attached = false;
            doneCurrent();
        });
        host->tryAttach();
    }
    void paintGL() override { host->paintGL(this); }
    void mouseReleaseEvent(QMouseEvent *e) override {
        // Widget coordinates to framebuffer pixels.
        const double s = devicePixelRatioF();
        host->input(LAUNCHAD_INPUT_POINTER_UP, e->position().x() * s, e->position().y() * s);
    }

private:
    Host *host;
};

// paintGL: the widget's context current, its framebuffer bound, the viewport its size.
void Host::paintGL(QOpenGLFunctions *gl) {
    int r = attached ? launchad_render(ad) : LAUNCHAD_RENDER_IDLE;
    if (r == LAUNCHAD_RENDER_DRAWN) return;
    if (r == LAUNCHAD_RENDER_ENDED || r < 0) finish();  // the context is current: the ad's GL objects go
    gl->glClearColor(green.redF(), green.greenF(), green.blueF(), 1);
    gl->glClear(GL_COLOR_BUFFER_BIT);
}

// The buffer view: the last frame as a QImage, or the application's green.
class BufferView : public QWidget {
public:
    explicit BufferView(Host *h) : host(h) {}

protected:
    void paintEvent(QPaintEvent *) override {
        QPainter p(this);
        if (host->frame.isNull()) p.fillRect(rect(), green);
        else p.drawImage(rect(), host->frame);
    }
    void mouseReleaseEvent(QMouseEvent *e) override {
        if (host->frame.isNull()) return;
        // Widget coordinates to buffer pixels.
        host->input(LAUNCHAD_INPUT_POINTER_UP, e->position().x() * host->frame.width() / width(),
                    e->position().y() * host->frame.height() / height());
    }

private:
    Host *host;
};

void Host::renderBuffer() {
    if (!attached) return;
    int r = launchad_render(ad);
    if (r == LAUNCHAD_RENDER_DRAWN) {
        const void *pixels;
        int w, h, pitch;
        // 32-bit ARGB words (bytes B, G, R, A in memory), opaque: QImage's RGB32 layout, which
        // ignores the alpha byte (255, or 253-254 where SDL blended).
        if (launchad_frame(ad, &pixels, &w, &h, &pitch) == LAUNCHAD_OK)
            frame = QImage(static_cast<const uchar *>(pixels), w, h, pitch, QImage::Format_RGB32).copy();
        view->update();
    } else if (r == LAUNCHAD_RENDER_ENDED || r < 0) {
        finish();
    }
}

void Host::tryAttach() {
    if (!ad || !ready || attached || done) return;
    int error;
    if (buffer_mode) {
        const double s = view->devicePixelRatioF();
        int w = qRound(view->width() * s), h = qRound(view->height() * s);
        if (w <= 0 || h <= 0) return;
        error = launchad_attach_buffer(ad, w, h);
    } else {
        auto *gl = static_cast<QOpenGLWidget *>(view);
        if (!gl->context()) return;  // initializeGL attaches
        gl->makeCurrent();
        error = launchad_attach_gl(ad, get_proc_address, gl->context());
        gl->doneCurrent();
    }
    if (error != LAUNCHAD_OK) {
        std::fprintf(stderr, "qt6-host: %s\n", launchad_strerror(error));
        finish();
        return;
    }
    attached = true;
    const QPoint at = view->mapTo(window, QPoint(0, 0));
    std::printf("content %dx%d+%d+%d scale %g\n", view->width(), view->height(), at.x(), at.y(), view->devicePixelRatioF());
    std::fflush(stdout);
    if (!presented) launchad_present(ad), presented = true;
    if (buffer_mode) render_timer.start(10);
    else view->update();
}

// The ad is over: destroyed (in GL mode with the widget's context current), the central widget
// green for one second, then the application quits.
void Host::finish() {
    if (!ad) return;
    if (!buffer_mode && static_cast<QOpenGLWidget *>(view)->context()) static_cast<QOpenGLWidget *>(view)->makeCurrent();
    launchad_destroy(ad);
    ad = nullptr;
    attached = false;
    done = true;
    render_timer.stop();
    frame = QImage();
    view->update();
    QTimer::singleShot(quitting ? 0 : 1000, qApp, &QApplication::quit);
}

class Window : public QMainWindow {
public:
    explicit Window(Host *h) : host(h) {}

protected:
    void changeEvent(QEvent *e) override {
        if (e->type() == QEvent::ActivationChange)
            host->input(isActiveWindow() ? LAUNCHAD_INPUT_FOCUS_GAINED : LAUNCHAD_INPUT_FOCUS_LOST);
        if (e->type() == QEvent::WindowStateChange) {
            const bool now = windowState() & Qt::WindowMinimized;
            if (now != minimized) host->input(now ? LAUNCHAD_INPUT_MINIMIZED : LAUNCHAD_INPUT_RESTORED);
            minimized = now;
        }
        QMainWindow::changeEvent(e);
    }
    void keyPressEvent(QKeyEvent *e) override {
        if (e->key() == Qt::Key_Escape) host->input(LAUNCHAD_INPUT_KEY_ESCAPE);
        else if (e->key() == Qt::Key_M) host->input(LAUNCHAD_INPUT_KEY_MUTE);
        else if (e->key() == Qt::Key_Space) host->input(LAUNCHAD_INPUT_KEY_PAUSE);
        else QMainWindow::keyPressEvent(e);
    }
    // The close button while the ad plays: the ad ends (as skipped, via close), then the app.
    void closeEvent(QCloseEvent *e) override {
        if (!host->ad) return QMainWindow::closeEvent(e);
        host->input(LAUNCHAD_INPUT_CLOSE);
        e->ignore();
    }

private:
    Host *host;
    bool minimized = false;
};

// SIGTERM, the application's own: the handler writes a byte, the event loop reads it.
static int term_pipe[2];
static void on_sigterm_signal(int) {
    char b = 1;
    ssize_t n = write(term_pipe[1], &b, 1);
    (void)n;
}

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    Host host, *h = &host;
    int first = 1;
    if (argc > 1 && std::strcmp(argv[1], "--buffer") == 0) h->buffer_mode = true, first = 2;
    if (first >= argc) {
        std::fprintf(stderr, "usage: qt6-host [--buffer] FILE [launchad play options...]\n");
        return 2;
    }
    Window window(h);
    h->window = &window;
    window.setWindowTitle("LaunchAd Qt host");
    window.resize(1280, 800);
    QToolBar *bar = window.addToolBar("LaunchAd Qt host");
    bar->setMovable(false);
    bar->addWidget(new QLabel("LaunchAd Qt host"));
    h->view = h->buffer_mode ? static_cast<QWidget *>(new BufferView(h)) : new GLView(h);
    window.setCentralWidget(h->view);
    QObject::connect(&h->render_timer, &QTimer::timeout, [h] { h->renderBuffer(); });

    if (socketpair(AF_UNIX, SOCK_STREAM, 0, term_pipe) != 0) return 1;
    QSocketNotifier term(term_pipe[0], QSocketNotifier::Read);
    QObject::connect(&term, &QSocketNotifier::activated, [h] {
        char b;
        ssize_t n = read(term_pipe[0], &b, 1);
        (void)n;
        std::printf("sigterm\n");
        std::fflush(stdout);
        h->quitting = true;
        if (!h->ad) return QApplication::quit();
        if (!h->attached) return h->finish();
        launchad_dismiss(h->ad);
        h->wake();
        // If no frame comes to deliver the end (a minimized window paints nothing): 2 s at most.
        QTimer::singleShot(2000, h->window, [h] { h->finish(); });
    });
    struct sigaction sa = {};
    sa.sa_handler = on_sigterm_signal;
    sigaction(SIGTERM, &sa, nullptr);

    window.show();
    const char *args[64] = {"play"};
    int n = 1;
    for (int i = first; i < argc && n < 64; i++) args[n++] = argv[i];
    int error = 0;
    h->ad = launchad_create(n, args, &error);
    if (!h->ad) {
        std::fprintf(stderr, "qt6-host: %s: %s\n", launchad_strerror(error), launchad_last_usage_error());
        return 1;
    }
    launchad_set_event_callback(h->ad, on_event, h);
    launchad_set_wakeup_callback(h->ad, on_wakeup, h);
    // Starts it and returns: READY (or END, with nothing to show, or FFmpeg missing) follows.
    launchad_prepare(h->ad, 0);
    int status = app.exec();
    if (h->ad) h->finish();
    return status;
}
