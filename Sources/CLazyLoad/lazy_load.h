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

/// How a library is opened. RTLD_LAZY: the dependencies built without BIND_NOW (about 50 of
/// FFmpeg's 130) bind their functions on first call, not all while the loader's lock holds up
/// SDL (FFmpeg's own libraries bind at once). Measured: libavformat with its dependencies
/// opened in 32.9 ms median against 35.6.
#define LAUNCHAD_LAZY_FLAGS (RTLD_LAZY | RTLD_LOCAL)

/// The longest problem text kept: a soname and dlerror's words.
#define LAUNCHAD_LAZY_PROBLEM_SIZE 512

#define LAUNCHAD_LAZY_FIELD(name) __typeof__(name) *_Nonnull name;
#define LAUNCHAD_LAZY_LOAD(name) \
    if (!problem[0]) { \
        table->name = (__typeof__(name) *)dlsym(library, #name); \
        if (!table->name) \
            snprintf(problem, LAUNCHAD_LAZY_PROBLEM_SIZE, "%s has no %s (install the version launchad was built with)", soname, #name); \
    }

/// `struct launchad_NAME` holding the functions `LIST(F)` names, filled from `SONAME` (opened,
/// or already open, for the rest of the process: never closed, the table keeps pointers into
/// it) the first time either function below is called:
/// - `launchad_NAME_problem()`: NULL when the library and every function launchad calls in it
///   are there, else why not, in one line. Commands ask before they start (a `play` ends with
///   its `error` and `end` events, exit 127), so a missing library is never found mid-run.
/// - `launchad_NAME()`: the table. Swift keeps a copy in a global `let` (one per module,
///   initialised once); the C helpers of the shims call it each time. Reached with the library
///   missing (a caller that did not ask first), it says so in one line and exits 127, the
///   outcome the dynamic loader gives a missing library at start-up.
/// A variadic function has no Swift type and would make the table non-Sendable: list those in
/// a table of their own that only C uses.
#define LAUNCHAD_LAZY_LIBRARY(NAME, SONAME, LIST) \
    struct launchad_##NAME { LIST(LAUNCHAD_LAZY_FIELD) }; \
    static inline struct launchad_##NAME *launchad_##NAME##_storage(void) { \
        static struct launchad_##NAME table; \
        return &table; \
    } \
    static inline char *launchad_##NAME##_problem_text(void) { \
        static char problem[LAUNCHAD_LAZY_PROBLEM_SIZE]; \
        return problem; \
    } \
    static inline void launchad_##NAME##_fill(void) { \
        const char *soname = SONAME; \
        char *problem = launchad_##NAME##_problem_text(); \
        void *library = dlopen(soname, LAUNCHAD_LAZY_FLAGS); \
        if (!library) { \
            snprintf(problem, LAUNCHAD_LAZY_PROBLEM_SIZE, "cannot load %s: %s (reinstall launchad's dependencies)", soname, dlerror()); \
            return; \
        } \
        struct launchad_##NAME *table = launchad_##NAME##_storage(); \
        LIST(LAUNCHAD_LAZY_LOAD) \
    } \
    static inline const char *launchad_##NAME##_problem(void) { \
        static pthread_once_t once = PTHREAD_ONCE_INIT; \
        pthread_once(&once, launchad_##NAME##_fill); \
        const char *problem = launchad_##NAME##_problem_text(); \
        return problem[0] ? problem : NULL; \
    } \
    static inline const struct launchad_##NAME *_Nonnull launchad_##NAME(void) { \
        const char *problem = launchad_##NAME##_problem(); \
        if (problem) { \
            fprintf(stderr, "launchad: %s\n", problem); \
            _exit(127); \
        } \
        return launchad_##NAME##_storage(); \
    }

#endif
