#ifndef LAUNCHAD_LAZY_LOAD_H
#define LAUNCHAD_LAZY_LOAD_H
// A C library opened on its first use rather than when the process starts: FFmpeg alone is
// about 130 libraries for the dynamic loader to map and relocate (30 ms), which `--version`,
// `outbox`, `schedule` and a local `play`'s libcurl never need. Each library's functions are
// a table of pointers typed from its own header (__typeof__), so a signature cannot drift,
// and the module maps link none of them, so a call that bypasses its table fails to link.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

// Swift's importer (clang) reads _Nonnull; package.sh's stub is built by gcc, which has none.
#ifndef __clang__
#define _Nonnull
#endif

/// `soname`, opened (or already open) for the rest of the process (never closed: the tables
/// keep pointers into it); when it cannot be, one line on stderr and exit status
/// 127, the outcome the dynamic loader gives a missing library at start-up. RTLD_LAZY: the
/// dependencies built without BIND_NOW (about 50 of FFmpeg's 130) bind their functions on first
/// call, not all while the loader's lock holds up SDL (FFmpeg's own libraries bind at once).
/// Measured: libavformat with its dependencies opened in 32.9 ms median against 35.6.
#define LAUNCHAD_LAZY_FLAGS (RTLD_LAZY | RTLD_LOCAL)

static inline void *launchad_lazy_open(const char *soname) {
    void *library = dlopen(soname, LAUNCHAD_LAZY_FLAGS);
    if (!library) {
        fprintf(stderr, "launchad: cannot load %s: %s (reinstall launchad's dependencies)\n", soname, dlerror());
        _exit(127);
    }
    return library;
}

/// `name` in `library`, or one line on stderr and exit 127 (an older library than the build's).
static inline void *launchad_lazy_symbol(void *library, const char *soname, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol) {
        fprintf(stderr, "launchad: %s has no %s (install the version launchad was built with)\n", soname, name);
        _exit(127);
    }
    return symbol;
}

#define LAUNCHAD_LAZY_FIELD(name) __typeof__(name) *_Nonnull name;
#define LAUNCHAD_LAZY_LOAD(name) table->name = (__typeof__(name) *)launchad_lazy_symbol(library, soname, #name);

/// `struct launchad_NAME` holding the functions `LIST(F)` names, and `launchad_NAME()` returning
/// it, filled from `SONAME` on the first call. Swift keeps a copy in a global `let` (one per
/// module, initialised once); the C helpers of the shims call `launchad_NAME()` each time.
/// A variadic function has no Swift type and would make the table non-Sendable: list those in
/// a table of their own that only C uses.
#define LAUNCHAD_LAZY_LIBRARY(NAME, SONAME, LIST) \
    struct launchad_##NAME { LIST(LAUNCHAD_LAZY_FIELD) }; \
    static inline struct launchad_##NAME *launchad_##NAME##_storage(void) { \
        static struct launchad_##NAME table; \
        return &table; \
    } \
    static inline void launchad_##NAME##_fill(void) { \
        const char *soname = SONAME; \
        void *library = launchad_lazy_open(soname); \
        struct launchad_##NAME *table = launchad_##NAME##_storage(); \
        LIST(LAUNCHAD_LAZY_LOAD) \
    } \
    static inline const struct launchad_##NAME *_Nonnull launchad_##NAME(void) { \
        static pthread_once_t once = PTHREAD_ONCE_INIT; \
        pthread_once(&once, launchad_##NAME##_fill); \
        return launchad_##NAME##_storage(); \
    }

#endif
