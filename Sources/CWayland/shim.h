#ifndef LAUNCHAD_CWAYLAND_SHIM_H
#define LAUNCHAD_CWAYLAND_SHIM_H
// Looks at a Wayland compositor before SDL does: SDL 2.26's wayland driver dereferences a null
// input when the compositor offers no wl_seat (weston with no input device, its headless
// backend), so that case must be caught first.
#include <string.h>
#include <wayland-client.h>
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include "../CLazyLoad/lazy_load.h"

// SDL2 is opened on first use (Sources/CSDL2/shim.h); the one function of SDL_syswm.h has a
// table of its own here, where that header is included.
#define LAUNCHAD_LIBSDL_SYSWM(F) F(SDL_GetWindowWMInfo)
LAUNCHAD_LAZY_LIBRARY(libsdl_syswm, "libSDL2-2.0.so.0", LAUNCHAD_LIBSDL_SYSWM)

static void launchad_wl_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)registry; (void)name; (void)version;
    if (strcmp(interface, "wl_seat") == 0) *(int *)data = 1;
}
static void launchad_wl_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

/// 1: the compositor at `socket` (a path or a name) offers a seat; 0: it offers none;
/// -1: no compositor answers there.
static inline int launchad_wayland_has_seat(const char *socket) {
    struct wl_display *display = wl_display_connect(socket);
    if (!display) return -1;
    static const struct wl_registry_listener listener = { launchad_wl_global, launchad_wl_global_remove };
    int seat = 0;
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &listener, &seat);
    int ok = wl_display_roundtrip(display);
    wl_registry_destroy(registry);
    wl_display_disconnect(display);
    return ok < 0 ? -1 : seat;
}

/// Whether the window's Wayland connection has failed (the compositor went away); SDL reports
/// that only as a quit request.
static inline int launchad_wayland_connection_lost(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!launchad_libsdl_syswm()->SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_WAYLAND) return 0;
    return wl_display_get_error(info.info.wl.display) != 0;
}
#endif
