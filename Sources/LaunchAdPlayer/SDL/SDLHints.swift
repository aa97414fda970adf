import CSDL2

/// SDL's hints are the process's: one LaunchAd needs for a call is set for that call only and
/// put back as it was, so an application's own SDL keeps its settings.
enum SDLHints {
    /// Runs `body` with hint `name` set to `value`, then restores the value it had.
    static func with<Result>(_ name: String, _ value: String, _ body: () -> Result) -> Result {
        let previous = libsdl.SDL_GetHint(name).map { String(cString: $0) }
        _ = libsdl.SDL_SetHint(name, value)
        defer { _ = libsdl.SDL_SetHint(name, previous) }
        return body()
    }

    /// Starts SDL subsystems without SDL's SIGINT and SIGTERM handlers: signals belong to the
    /// command line (which installs its own) or to the application that embeds LaunchAd.
    static func initSubSystem(_ flags: UInt32) -> Int32 {
        with(SDL_HINT_NO_SIGNAL_HANDLERS, "1") { libsdl.SDL_InitSubSystem(flags) }
    }
}
