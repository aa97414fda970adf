import CSDL2

/// SDL's audio subsystem, started once for the process and kept: each start after a stop makes
/// SDL 2.26 list its devices anew and drop the old list (valgrind: ~128 bytes a cycle, which an
/// application showing an ad at every start of a screen would pile up). Devices are opened and
/// closed per ad (AudioDevice).
enum SDLAudio {
    /// Whether the subsystem is up (started on first use, thread-safely).
    static let started: Bool = libsdl.SDL_InitSubSystem(SDL_INIT_AUDIO) == 0
}
