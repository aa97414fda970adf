/* guest-host: a host that checks what a launch ad leaves of its process (HostProcessTests).
 *
 *     guest-host FILE [launchad play options...]
 *
 * It installs its own SIGHUP handler and leaves SIGINT and SIGTERM at their defaults, notes its
 * environment, times the first launchad_prepare(ad, 0) of the process, shows the ad into a
 * buffer (presented on READY), compares its signal dispositions and environment with what they
 * were while the ad plays and after launchad_destroy, checks that its SIGHUP handler still runs,
 * checks that its own ALSA error handler (libasound's is one for the process) still gets ALSA's
 * errors after the ad, and finally raises SIGTERM on itself: with the default disposition it
 * dies of it. Every line it prints starts with "host "; anything else on stdout came from the
 * library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <launchad.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The host's own ALSA error handler, and an ALSA error made on purpose (a card that is not there). */
static int alsa_errors;
static void on_alsa_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
    alsa_errors++;
}
typedef int (*alsa_set_handler)(void (*)(const char *, int, const char *, int, const char *, ...));
typedef int (*alsa_pcm_open)(void **, const char *, int, int);
static alsa_pcm_open pcm_open;
static int alsa_error_reaches_host(void) {
    if (!pcm_open) return -1;
    int before = alsa_errors;
    void *pcm = NULL;
    if (pcm_open(&pcm, "hw:99,0", 0, 0) == 0) return -1;
    return alsa_errors > before;
}

static volatile sig_atomic_t hangups;
static void on_hangup(int sig) { (void)sig; hangups++; }

static const int watched[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};
#define WATCHED (sizeof watched / sizeof watched[0])

static void dispositions(struct sigaction *out) {
    for (unsigned i = 0; i < WATCHED; i++) sigaction(watched[i], NULL, &out[i]);
}

static int same_dispositions(const struct sigaction *a, const struct sigaction *b) {
    for (unsigned i = 0; i < WATCHED; i++)
        if (a[i].sa_handler != b[i].sa_handler || a[i].sa_flags != b[i].sa_flags) return 0;
    return 1;
}

static char *environment(void) {
    size_t n = 1;
    for (char **e = environ; *e; e++) n += strlen(*e) + 1;
    char *all = calloc(n, 1);
    for (char **e = environ; *e; e++) { strcat(all, *e); strcat(all, "\n"); }
    return all;
}

static int settled, first_frame;
static void on_event(void *user, const launchad_event *e) {
    (void)user;
    if (e->kind == LAUNCHAD_EVENT_READY || e->kind == LAUNCHAD_EVENT_END) settled = 1;
    if (e->kind == LAUNCHAD_EVENT_FIRST_FRAME) first_frame = 1;
    if (e->kind == LAUNCHAD_EVENT_END) printf("host end %s\n", e->outcome_name);
    fflush(stdout);
}

/* The ad's wake-up hook writes a byte; the loop waits on it (a frame's time at most). */
static int wake_pipe[2];
static void on_wakeup(void *user) { (void)user; (void)!write(wake_pipe[1], "w", 1); }
static void wait_for_work(int ms) {
    struct pollfd p = {.fd = wake_pipe[0], .events = POLLIN};
    if (poll(&p, 1, ms) > 0) { char b[64]; (void)!read(wake_pipe[0], b, sizeof b); }
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

/* How long this thread has waited, runnable, for a core while other threads had it (the kernel's
 * run_delay, /proc/thread-self/schedstat's second field); 0 where the kernel does not say. */
static double queued_ms(void) {
    unsigned long long running = 0, waiting = 0;
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    if (!f) return 0;
    int got = fscanf(f, "%llu %llu", &running, &waiting);
    fclose(f);
    return got == 2 ? waiting / 1e6 : 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    struct sigaction hup = {0};
    hup.sa_handler = on_hangup;
    sigemptyset(&hup.sa_mask);
    sigaction(SIGHUP, &hup, NULL);
    void *alsa = dlopen("libasound.so.2", RTLD_NOW);
    if (alsa) {
        alsa_set_handler set = (alsa_set_handler)dlsym(alsa, "snd_lib_error_set_handler");
        pcm_open = (alsa_pcm_open)dlsym(alsa, "snd_pcm_open");
        if (set) set(on_alsa_error);
    }
    printf("host alsa before %d\n", alsa_error_reaches_host());
    struct sigaction before[WATCHED], during[WATCHED], after[WATCHED];
    dispositions(before);
    char *env_before = environment();

    const char *args[64] = {"play"};
    int n = 1;
    for (int i = 1; i < argc && n < 64; i++) args[n++] = argv[i];
    launchad *ad = launchad_create(n, args, NULL);
    if (!ad) return 1;
    if (pipe(wake_pipe) != 0) return 1;
    launchad_set_event_callback(ad, on_event, NULL);
    launchad_set_wakeup_callback(ad, on_wakeup, NULL);
    /* The call's time, and the part of it a loaded machine gave another process's thread the core. */
    double q0 = queued_ms(), t0 = now_ms();
    int prepared = launchad_prepare(ad, 0);
    double wall = now_ms() - t0, queued = queued_ms() - q0;
    printf("host prepare %d %.3f ms queued %.3f ms\n", prepared, wall, queued);
    launchad_attach_buffer(ad, 320, 180);
    while (!settled) { launchad_poll_events(ad); if (!settled) wait_for_work(100); }
    launchad_present(ad);
    int checked = 0;
    for (;;) {
        int r = launchad_render(ad);
        if (r == LAUNCHAD_RENDER_ENDED || r < 0) break;
        if (first_frame && !checked) {
            dispositions(during);
            char *env = environment();
            printf("host during signals %s environment %s\n", same_dispositions(before, during) ? "same" : "changed",
                   strcmp(env, env_before) == 0 ? "same" : "changed");
            free(env);
            checked = 1;
        }
        if (r != LAUNCHAD_RENDER_DRAWN) wait_for_work(16);
    }
    launchad_destroy(ad);
    dispositions(after);
    char *env = environment();
    printf("host after signals %s environment %s\n", same_dispositions(before, after) ? "same" : "changed",
           strcmp(env, env_before) == 0 ? "same" : "changed");
    printf("host alsa after %d\n", alsa_error_reaches_host());
    raise(SIGHUP);
    printf("host hangups %d\n", (int)hangups);
    fflush(stdout);
    raise(SIGTERM);
    printf("host survived SIGTERM\n");
    return 0;
}
