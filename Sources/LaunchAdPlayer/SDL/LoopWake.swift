import CSDL2

/// Ends the main loop's wait (`SDL_WaitEventTimeout`) early; SDL_PushEvent is safe from any thread.
enum LoopWake {
    static func post() {
        var e = SDL_Event()
        e.type = SDL_USEREVENT.rawValue
        _ = libsdl.SDL_PushEvent(&e)
    }
}
