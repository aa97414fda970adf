import CSDL2

// SDL2 and SDL2_ttf, each opened on its first use by this process rather than at start-up
// (Sources/CLazyLoad/lazy_load.h). A missing library ends the process with one line and exit
// status 127.

/// SDL2's functions.
let libsdl = launchad_libsdl().pointee
/// SDL2_ttf's functions.
let libsdlttf = launchad_libsdlttf().pointee
