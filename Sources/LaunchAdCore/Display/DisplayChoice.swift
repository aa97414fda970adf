/// Which SDL video driver a run asks for, decided from the environment alone, and what must be
/// checked before SDL is started (SDL 2.26 can crash or take the console when those checks fail).
public enum DisplayChoice: Equatable, Sendable {
    /// Leave the choice to SDL (nothing is set, or the user named a driver we have no check for).
    case sdlDefault
    case x11
    /// The Wayland socket to check before SDL connects to it.
    case wayland(socket: String)
    case kmsdrm
    /// A mistake that no driver can get round: one line for the `no_display` error.
    case unusable(String)

    /// The driver name to hand SDL, when the choice is ours.
    public var driverHint: String? {
        switch self {
        case .x11: return "x11"
        case .wayland: return "wayland"
        case .kmsdrm: return "kmsdrm"
        case .sdlDefault, .unusable: return nil
        }
    }

    /// SDL_VIDEODRIVER when set wins; otherwise x11 when DISPLAY is set (an XWayland desktop
    /// included), Wayland when only WAYLAND_DISPLAY is.
    public static func decide(environment env: [String: String]) -> DisplayChoice {
        func value(_ key: String) -> String? { env[key].flatMap { $0.isEmpty ? nil : $0 } }
        let wayland = { () -> DisplayChoice in
            let name = value("WAYLAND_DISPLAY") ?? "wayland-0"
            if name.hasPrefix("/") { return .wayland(socket: name) }
            guard let runtime = value("XDG_RUNTIME_DIR") else {
                return .unusable("XDG_RUNTIME_DIR is not set, so the Wayland socket \(name) cannot be found")
            }
            return .wayland(socket: runtime.hasSuffix("/") ? runtime + name : runtime + "/" + name)
        }
        if let asked = value("SDL_VIDEODRIVER")?.lowercased() {
            switch asked {
            case "wayland": return wayland()
            case "kmsdrm": return .kmsdrm
            case "x11": return .x11
            default: return .sdlDefault
            }
        }
        if value("DISPLAY") != nil { return .x11 }
        if value("WAYLAND_DISPLAY") != nil { return wayland() }
        return .sdlDefault
    }
}
