import CSDL2
import CWayland
import Foundation
import LaunchAdCore

/// Carries out the display choice before SDL's video subsystem starts: names the driver, and
/// turns the cases where SDL 2.26 would crash (a Wayland compositor without a seat) or take the
/// console (kmsdrm without devices) into a `no_display` error instead.
enum DisplayProbe {
    static func prepare(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let choice = DisplayChoice.decide(environment: environment)
        switch choice {
        case .unusable(let why):
            throw SDLError(code: .noDisplay, message: "no display: \(why)")
        case .wayland(let socket):
            try checkWayland(socket)
            // libdecor without a decoration plugin (Debian installs none by default) ignores the
            // size a kiosk compositor gives the window (cage left it at its first size); plain
            // xdg-shell follows it. An ad needs no title bar.
            _ = libsdl.SDL_SetHint(SDL_HINT_VIDEO_WAYLAND_ALLOW_LIBDECOR, "0")
        case .kmsdrm:
            if let why = KMSReadiness.problem(
                drm: nodes(in: "/dev/dri", prefix: "card", flags: O_RDWR),
                input: nodes(in: "/dev/input", prefix: "event", flags: O_RDONLY) ?? [])
            {
                throw SDLError(code: .noDisplay, message: "no display (kmsdrm): \(why)")
            }
        case .x11:
            break
        case .sdlDefault:
            if !waylandReachable(environment) { skipWayland() }
        }
        if let hint = choice.driverHint { _ = libsdl.SDL_SetHint(SDL_HINT_VIDEODRIVER, hint) }
    }

    /// Without XDG_RUNTIME_DIR (and no socket path in WAYLAND_DISPLAY) no compositor can be
    /// reached, and libwayland would only print "XDG_RUNTIME_DIR is invalid" on stderr.
    private static func waylandReachable(_ env: [String: String]) -> Bool {
        env["XDG_RUNTIME_DIR"].map { !$0.isEmpty } ?? false || env["WAYLAND_DISPLAY"]?.hasPrefix("/") == true
    }

    /// SDL's own driver order, Wayland left out.
    private static func skipWayland() {
        let drivers = (0..<libsdl.SDL_GetNumVideoDrivers()).compactMap { libsdl.SDL_GetVideoDriver($0).map { String(cString: $0) } }
        _ = libsdl.SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers.filter { $0 != "wayland" }.joined(separator: ","))
    }

    private static func checkWayland(_ socket: String) throws {
        var st = stat()
        guard stat(socket, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else {
            throw SDLError(code: .noDisplay, message: "no display: no Wayland compositor socket at \(socket)")
        }
        switch launchad_wayland_has_seat(socket) {
        case 1: return
        case 0:
            throw SDLError(
                code: .noDisplay,
                message:
                    "no display: the Wayland compositor at \(socket) offers no input seat (wl_seat), without which SDL 2.26 cannot start; give it an input device, or use X11/XWayland (DISPLAY)"
            )
        default:
            throw SDLError(code: .noDisplay, message: "no display: the Wayland compositor at \(socket) does not answer")
        }
    }

    /// The device nodes under `dir` starting with `prefix`, each with whether it opens; nil when
    /// `dir` does not exist.
    private static func nodes(in dir: String, prefix: String, flags: Int32) -> [KMSReadiness.Node]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return nil }
        return names.filter { $0.hasPrefix(prefix) }.sorted().map { name in
            let path = dir + "/" + name
            let fd = open(path, flags | O_CLOEXEC | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            return KMSReadiness.Node(path: path, usable: fd >= 0)
        }
    }
}
