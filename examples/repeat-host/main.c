/* repeat-host: creates, prepares, presents and destroys a launch ad N times in one process,
 * into a buffer (no display needed), as an application that shows an ad at every start of a
 * screen would; for valgrind (scripts/embed-leak-check.sh) and the embedded first-frame bench
 * (bench/embedded-first-frame.sh). Prints one line per run: the milliseconds from present to the
 * first drawn frame.
 *
 *     repeat-host N FILE [launchad play options...] */
#define _POSIX_C_SOURCE 199309L
#include <launchad.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static void on_event(void *user, const launchad_event *e) {
    if (e->id == LAUNCHAD_EVENT_FIRST_FRAME) *(int *)user = 1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: repeat-host N FILE [launchad play options...]\n");
        return 2;
    }
    int runs = atoi(argv[1]);
    const char *args[64] = {"play"};
    int n = 1;
    for (int i = 2; i < argc && n < 64; i++) args[n++] = argv[i];
    for (int run = 0; run < runs; run++) {
        int error = 0, shown = 0;
        launchad *ad = launchad_create(n, args, &error);
        if (!ad) {
            fprintf(stderr, "repeat-host: %s\n", launchad_last_usage_error());
            return 1;
        }
        launchad_set_event_callback(ad, on_event, &shown);
        launchad_prepare(ad, 10);
        launchad_attach_buffer(ad, 320, 180);
        double start = now_ms();
        launchad_present(ad);
        while (!shown && now_ms() - start < 10000) {
            if (launchad_render(ad) < 0) break;
        }
        printf("%.1f\n", now_ms() - start);
        fflush(stdout);
        launchad_dismiss(ad);
        while (launchad_render(ad) != LAUNCHAD_RENDER_ENDED && now_ms() - start < 20000) {}
        launchad_destroy(ad);
    }
    return 0;
}
