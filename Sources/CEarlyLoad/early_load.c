// `launchad play` and `launchad launch` start loading FFmpeg before main: about 130 libraries,
// 30-40 ms under the dynamic loader's lock, all of it on the way to the first frame. From an
// ELF constructor the loading starts about 4 ms sooner than from the command's first line (the
// Swift runtime and Foundation start meanwhile, on the other core). It only warms: the tables
// are filled, and a library that cannot be loaded reported (exit 127), where FFmpeg is first
// used (Sources/CLazyLoad/lazy_load.h). The libraries stay open for the process, as there.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../CFFmpeg/sonames.h"
#include "../CLazyLoad/lazy_load.h"
#include "early_load.h"

static void *launchad_early_load_thread(void *unused) {
    (void)unused;
    dlopen(LAUNCHAD_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR), LAUNCHAD_LAZY_FLAGS);
    dlopen(LAUNCHAD_SONAME(swscale, LIBSWSCALE_VERSION_MAJOR), LAUNCHAD_LAZY_FLAGS);
    dlopen(LAUNCHAD_SONAME(swresample, LIBSWRESAMPLE_VERSION_MAJOR), LAUNCHAD_LAZY_FLAGS);
    return NULL;
}

static pthread_t launchad_early_load_thread_id;

// A process that ends at once (a usage error) waits for the loading to finish: exit's
// destructors must not run beside library constructors still running in that thread (under
// ThreadSanitizer, libgomp's asserted).
static void launchad_early_load_join(void) { pthread_join(launchad_early_load_thread_id, NULL); }

// SDL's keyboard start-up (X11's input method, Wayland's xkbcommon) parses the locale's
// Compose table: en_US.UTF-8's is 500 KB, 11 ms of the main thread's way to the first frame.
// launchad reads keys, never composed text, so its own table is empty, unless the user chose
// one. Set here because no other thread exists yet (setenv beside a getenv is a data race);
// the programs launchad starts get the environment as it was (ChildEnvironment).
static int launchad_compose_emptied;

int launchad_compose_table_emptied(void) { return launchad_compose_emptied; }

// The command line as glibc handed it to the constructor. The statically linked Swift runtime
// finds CommandLine.arguments by walking back from `environ`, which setenv moves to the heap:
// main reads the arguments from here instead (no private runtime entry point is called).
static int launchad_saved_argc;
static char **launchad_saved_argv;

int launchad_argument_count(void) { return launchad_saved_argc; }

const char *launchad_argument(int index) {
    return index >= 0 && index < launchad_saved_argc ? launchad_saved_argv[index] : NULL;
}

// SDL turns SIGTERM and SIGINT into a quit event only once its video starts, 40-60 ms in: a
// signal before that killed `play` and `launch` with no `end` event (and `launch` never started
// its app). From here on they are noted instead (unless ignored, as in a background job or under
// nohup), and the player acts on them as on SDL's quit; SDL leaves a signal that already has a
// handler alone. SIGHUP too (a closed terminal or session): the player's own SIGHUP source
// starts with SDL, and before it a hangup killed `play` and `launch` the same way; the player
// puts this handler back when it ends, so a hangup during the post-ad waits ends them as a
// SIGTERM does instead of killing the process after its `end`. The first one is also kept for good: the waits after the ad end on it, and `launch`
// passes it on to its app.
static volatile sig_atomic_t launchad_quit_signal;
static volatile sig_atomic_t launchad_first_quit_signal;
// Each noted signal is also one byte (its number) on this pipe, so that a thread of the command
// line's wakes at once, whatever the player's thread is doing (stuck in a driver, a display
// server, a read): write(2) is async-signal-safe, a lock or a condition is not.
static int launchad_quit_pipe[2] = {-1, -1};

static void launchad_note_quit(int sig) {
    if (launchad_quit_signal == 0) launchad_quit_signal = sig;
    if (launchad_first_quit_signal == 0) launchad_first_quit_signal = sig;
    if (launchad_quit_pipe[1] >= 0) {
        int saved = errno;
        unsigned char byte = (unsigned char)sig;
        (void)!write(launchad_quit_pipe[1], &byte, 1);
        errno = saved;
    }
}

int launchad_quit_signal_fd(void) { return launchad_quit_pipe[0]; }

int launchad_first_quit_signal_noted(void) { return launchad_first_quit_signal; }

int launchad_take_quit_signal(void) {
    int sig = launchad_quit_signal;
    launchad_quit_signal = 0;
    return sig;
}

static void launchad_catch_quit_signals(void) {
    // Non-blocking for the handler (a full pipe drops the byte; the flags above still say it),
    // blocking for the reader.
    if (pipe2(launchad_quit_pipe, O_CLOEXEC) == 0) fcntl(launchad_quit_pipe[1], F_SETFL, O_NONBLOCK);
    int signals[] = {SIGTERM, SIGINT, SIGHUP};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        if (sigaction(signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        struct sigaction caught = {0};
        caught.sa_handler = launchad_note_quit;
        caught.sa_flags = SA_RESTART;
        sigemptyset(&caught.sa_mask);
        sigaction(signals[i], &caught, NULL);
    }
}

// glibc passes the executable's constructors argc and argv.
__attribute__((constructor)) static void launchad_early_load(int argc, char **argv) {
    // A C library that passes its constructors nothing (not glibc) leaves the environment alone.
    if (argc < 1 || argv == NULL || argv[argc] != NULL) return;
    launchad_saved_argc = argc;
    launchad_saved_argv = argv;
    if (getenv("XCOMPOSEFILE") == NULL && setenv("XCOMPOSEFILE", "/dev/null", 0) == 0) launchad_compose_emptied = 1;
    if (argc < 2 || (strcmp(argv[1], "play") != 0 && strcmp(argv[1], "launch") != 0)) return;
    launchad_catch_quit_signals();
    if (pthread_create(&launchad_early_load_thread_id, NULL, launchad_early_load_thread, NULL) != 0) return;
    atexit(launchad_early_load_join);
}
