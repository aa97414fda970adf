import CSDL2

// SDL2 and SDL2_ttf, each opened on its first use by this process rather than at start-up
// (Sources/CLazyLoad/lazy_load.h). A command asks `SDLLibraries.problem()` before it starts,
// so a missing library is reported through its normal end, never found mid-run.

/// SDL2's functions.
let libsdl = launchad_libsdl().pointee
/// SDL2_ttf's functions.
let libsdlttf = launchad_libsdlttf().pointee

/// Whether SDL2 and SDL2_ttf can be used.
public enum SDLLibraries {
    /// Nil when both libraries and every function launchad calls in them are there; else why
    /// not, in one line ("cannot load libSDL2-2.0.so.0: ...").
    public static func problem() -> String? {
        [launchad_libsdl_problem(), launchad_libsdlttf_problem()].lazy.compactMap { $0.map { String(cString: $0) } }.first
    }
}
