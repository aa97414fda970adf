import CSDL2
import CWayland
import LaunchAdCore

/// SDL events as session inputs.
extension AdPlayer {
    /// Window events, not window flags: a pushed event must act the same as a real one.
    func input(from e: SDL_Event) -> SessionInput? {
        switch SDL_EventType(e.type) {
        case SDL_QUIT:
            // SDL reports a Wayland compositor that went away as a quit request.
            if let window, launchad_wayland_connection_lost(window.pointer) != 0 {
                return .failed(code: .windowLost, message: "the Wayland compositor closed the connection")
            }
            return .closeRequested
        case SDL_WINDOWEVENT:
            // Only this ad's window: an earlier one's closing (its hidden and focus-lost events,
            // late on a loaded machine) must not pause the next ad of the process (a pod, a host).
            guard let window, e.window.windowID == window.id else { return nil }
            switch SDL_WindowEventID(UInt32(e.window.event)) {
            case SDL_WINDOWEVENT_FOCUS_LOST: return .pause(.focusLost)
            case SDL_WINDOWEVENT_FOCUS_GAINED: return .resume(.focusLost)
            case SDL_WINDOWEVENT_MINIMIZED: return .pause(.minimized)
            case SDL_WINDOWEVENT_RESTORED: return .resume(.minimized)
            case SDL_WINDOWEVENT_HIDDEN: return .pause(.hidden)
            case SDL_WINDOWEVENT_SHOWN: return .resume(.hidden)
            case SDL_WINDOWEVENT_CLOSE: return .closeRequested
            default: return nil
            }
        case SDL_MOUSEBUTTONUP:
            guard e.button.button == UInt8(SDL_BUTTON_LEFT), e.button.which != launchad_sdl_touch_mouseid() else { return nil }
            let p = toPixels(Double(e.button.x), Double(e.button.y))
            let q = toScene(p.0, p.1)
            return .pointerUp(x: q.0, y: q.1)
        case SDL_FINGERUP:
            let out = renderer?.outputSize ?? session.layout.window
            let p = toScene(Double(e.tfinger.x) * Double(out.width), Double(e.tfinger.y) * Double(out.height))
            return .pointerUp(x: p.0, y: p.1)
        case SDL_KEYDOWN:
            // A held key repeats: act on the press only.
            guard e.key.repeat == 0 else { return nil }
            switch Int(e.key.keysym.sym) {
            case Int(SDLK_ESCAPE.rawValue): return .key(.escape)
            case Int(SDLK_m.rawValue): return .key(.mute)
            case Int(SDLK_SPACE.rawValue): return .key(.pauseToggle)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// Output pixels to the (possibly turned) scene's coordinates, where the hit areas are.
    func toScene(_ x: Double, _ y: Double) -> (Double, Double) {
        guard let renderer else { return (x, y) }
        let p = renderer.rotation.toScene(x: x, y: y, output: renderer.outputSize)
        return (p.x, p.y)
    }

    /// Window coordinates to drawing pixels (they differ on high-DPI screens).
    func toPixels(_ x: Double, _ y: Double) -> (Double, Double) {
        guard let window, let renderer else { return (x, y) }
        let w = window.pixelSize, o = renderer.outputSize
        guard w.width > 0, w.height > 0 else { return (x, y) }
        return (x * Double(o.width) / Double(w.width), y * Double(o.height) / Double(w.height))
    }
}
