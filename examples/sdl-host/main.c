/* sdl-host: an SDL2 application that shows its launch ad in its own window through launchad.h.
 *
 *     sdl-host FILE [launchad play options...]
 *
 * A 1280x720 window titled "sdl-host", filled with the application's green (#20A040). At start
 * it shows the launch ad FILE in that window, prints one line per event it receives
 * ("event first_frame", "event end completed", ...), and when the ad ends draws its own green
 * again for one second and exits 0. Built by scripts/build-examples.sh. */
#include <SDL2/SDL.h>
#include <launchad.h>
#include <stdio.h>

static Uint32 wake_event;

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

/* From any thread: only wakes the loop below. */
static void on_wakeup(void *user) {
    (void)user;
    SDL_Event ev = {0};
    ev.type = wake_event;
    SDL_PushEvent(&ev);
}

static void draw_green(SDL_Renderer *r) {
    SDL_SetRenderDrawColor(r, 0x20, 0xA0, 0x40, 255);
    SDL_RenderClear(r);
    SDL_RenderPresent(r);
}

/* The application's own events, told to the ad. */
static void forward(launchad *ad, const SDL_Event *ev) {
    switch (ev->type) {
    case SDL_QUIT: launchad_input(ad, LAUNCHAD_INPUT_CLOSE, 0, 0); break;
    case SDL_MOUSEBUTTONUP: launchad_input(ad, LAUNCHAD_INPUT_POINTER_UP, ev->button.x, ev->button.y); break;
    case SDL_KEYDOWN:
        if (ev->key.keysym.sym == SDLK_ESCAPE) launchad_input(ad, LAUNCHAD_INPUT_KEY_ESCAPE, 0, 0);
        if (ev->key.keysym.sym == SDLK_m) launchad_input(ad, LAUNCHAD_INPUT_KEY_MUTE, 0, 0);
        break;
    case SDL_WINDOWEVENT:
        if (ev->window.event == SDL_WINDOWEVENT_FOCUS_LOST) launchad_input(ad, LAUNCHAD_INPUT_FOCUS_LOST, 0, 0);
        if (ev->window.event == SDL_WINDOWEVENT_FOCUS_GAINED) launchad_input(ad, LAUNCHAD_INPUT_FOCUS_GAINED, 0, 0);
        if (ev->window.event == SDL_WINDOWEVENT_MINIMIZED) launchad_input(ad, LAUNCHAD_INPUT_MINIMIZED, 0, 0);
        if (ev->window.event == SDL_WINDOWEVENT_RESTORED) launchad_input(ad, LAUNCHAD_INPUT_RESTORED, 0, 0);
        break;
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: sdl-host FILE [launchad play options...]\n");
        return 2;
    }
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0) {
        fprintf(stderr, "sdl-host: %s\n", SDL_GetError());
        return 1;
    }
    SDL_Window *window = SDL_CreateWindow("sdl-host", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 1280, 720, SDL_WINDOW_SHOWN);
    SDL_Renderer *renderer = window ? SDL_CreateRenderer(window, -1, 0) : NULL;
    if (!renderer) {
        fprintf(stderr, "sdl-host: %s\n", SDL_GetError());
        return 1;
    }
    wake_event = SDL_RegisterEvents(1);
    draw_green(renderer);

    /* The launch ad: `launchad play FILE ...`, in this window. */
    const char *args[64] = {"play"};
    int n = 1;
    for (int i = 1; i < argc && n < 64; i++) args[n++] = argv[i];
    int error = 0;
    launchad *ad = launchad_create(n, args, &error);
    if (!ad) {
        fprintf(stderr, "sdl-host: %s: %s\n", launchad_strerror(error), launchad_last_usage_error());
        return 1;
    }
    launchad_set_event_callback(ad, on_event, NULL);
    launchad_set_wakeup_callback(ad, on_wakeup, NULL);
    /* Prepared on the ad's own threads: this loop keeps running (and drawing its green) until
     * the READY event says the first picture is decoded. */
    launchad_prepare(ad, 0);
    launchad_attach_sdl(ad, window, renderer);
    while (!settled) {
        SDL_Event ev;
        if (SDL_WaitEventTimeout(&ev, 100) && ev.type != wake_event) forward(ad, &ev);
        launchad_poll_events(ad);
    }
    launchad_present(ad);
    for (;;) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) forward(ad, &ev);
        int result = launchad_render(ad);
        if (result == LAUNCHAD_RENDER_ENDED || result < 0) break;
        if (result == LAUNCHAD_RENDER_DRAWN) SDL_RenderPresent(renderer);
        else SDL_WaitEventTimeout(NULL, 10);
    }
    launchad_destroy(ad);

    /* The application's own window again. */
    Uint32 start = SDL_GetTicks();
    while (SDL_GetTicks() - start < 1000) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) {}
        draw_green(renderer);
        SDL_Delay(16);
    }
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return 0;
}
