import Foundation

/// A Wayland compositor (weston, pixman renderer, no GPU) a test starts for itself, in its own
/// 0700 runtime folder. Weston's headless backend has no input devices and so offers no seat;
/// its X11 backend, nested in a private Xvfb, offers one (a keyboard and a pointer), as a kiosk
/// with a touchscreen or keyboard would.
public final class Compositor {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    public let runtimeDir: String
    public let socketName: String
    private var xvfb: Process?
    /// The compositor's process.
    private var weston: Process?

    public var socketPath: String { runtimeDir + "/" + socketName }

    /// The environment a Wayland-only session gives its programs: no DISPLAY, no SDL driver named.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "SDL_VIDEODRIVER")
        env["WAYLAND_DISPLAY"] = socketName
        env["XDG_RUNTIME_DIR"] = runtimeDir
        env["SDL_AUDIODRIVER"] = "dummy"
        return env
    }

    /// weston with `shell` (kiosk-shell.so fills the output with the window), a seat, an output of `size`.
    public static func westonWithSeat(shell: String = "kiosk-shell.so", width: Int = 800, height: Int = 600) throws -> Compositor {
        try require(["/usr/bin/weston", "/usr/bin/weston-info", "/usr/bin/Xvfb"])
        let c = try Compositor()
        let display: String
        (c.xvfb, display) = try Xvfb.start(["-screen", "0", "\(width + 64)x\(height + 64)x24", "-nolisten", "tcp"])
        c.weston = try start(
            "/usr/bin/weston",
            [
                "--backend=x11-backend.so", "--use-pixman", "--shell=\(shell)", "--no-config",
                "--socket=\(c.socketName)", "--width=\(width)", "--height=\(height)"
            ],
            ["DISPLAY": display, "XDG_RUNTIME_DIR": c.runtimeDir])
        try c.waitUntilOffering(["xdg_wm_base", "wl_seat"])
        return c
    }

    /// weston's headless backend, as the reporter started it: no input devices, no seat.
    public static func westonHeadless() throws -> Compositor {
        try require(["/usr/bin/weston", "/usr/bin/weston-info"])
        let c = try Compositor()
        c.weston = try start(
            "/usr/bin/weston", ["--backend=headless-backend.so", "--use-pixman", "--no-config", "--socket=\(c.socketName)"],
            ["XDG_RUNTIME_DIR": c.runtimeDir])
        try c.waitUntilOffering(["xdg_wm_base"])
        return c
    }

    /// cage (wlroots, headless backend, pixman renderer, one 1280x720 output), started as the
    /// unprivileged user `nobody` since it refuses to run as root, kept alive by a
    /// `sleep` as its application; a test (root) connects to its socket like any other client.
    /// Its Xwayland's display (it takes the lowest free one, :0 say) is its own: a network
    /// namespace of its own for the abstract sockets and a /tmp of its own for the socket files
    /// and the lock file, so an Xvfb that another test process starts meanwhile on that number is
    /// the one its clients reach (they reached cage's Xwayland), and the two never take or remove
    /// each other's /tmp/.X0-lock (an Xvfb's lock named another server's pid, or was gone).
    public static func cage() throws -> Compositor {
        try require(["/usr/bin/cage", "/usr/bin/Xwayland", "/usr/bin/setpriv", "/usr/bin/unshare", "/usr/bin/weston-info"])
        let c = try Compositor(socketName: "wayland-0")
        guard chown(c.runtimeDir, 65534, 65534) == 0 else { throw Missing(description: "cannot hand \(c.runtimeDir) to nobody") }
        // unshare, sh and setpriv each execute the next in the same process, so stopping the
        // process stops cage.
        c.weston = try start(
            "/usr/bin/unshare",
            [
                "--net", "--mount", "--", "/bin/sh", "-c",
                // A /tmp of its own, its runtime folder bound back into it from where the test has it.
                "d=\"$XDG_RUNTIME_DIR\"; mkdir -p /mnt && mount --bind \"$d\" /mnt && mount -t tmpfs -o mode=1777 tmpfs /tmp"
                    + " && mkdir -p \"$d\" && mount --bind /mnt \"$d\" && exec /usr/bin/setpriv \"$@\"", "sh",
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/cage", "--", "/bin/sh", "-c",
                "echo $$ > \"$XDG_RUNTIME_DIR/app.pid\"; exec sleep 120"
            ],
            ["XDG_RUNTIME_DIR": c.runtimeDir, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"])
        try c.waitUntilOffering(["xdg_wm_base"])
        return c
    }

    private init(socketName: String = "wl-test") throws {
        runtimeDir = NSTemporaryDirectory() + "launchad-wl-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: runtimeDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        self.socketName = socketName
    }

    /// Kills the compositor at once, as a crash would.
    public func kill() {
        guard let w = weston, w.isRunning else { return }
        Foundation.kill(w.processIdentifier, SIGKILL)
        w.waitUntilExit()
    }

    deinit {
        // cage waits for its application: stop that first (the sleep it was given).
        if let pid = (try? String(contentsOfFile: runtimeDir + "/app.pid", encoding: .utf8)).flatMap({
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }),
            // Still that sleep: once it ended, its pid may be another test's program.
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("sleep") == true
        {
            Foundation.kill(pid, SIGTERM)
        }
        for p in [weston, xvfb].compactMap({ $0 }) where p.isRunning {
            p.terminateIfRunning()
            p.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: runtimeDir)
    }

    private static func require(_ paths: [String]) throws {
        for p in paths where !FileManager.default.isExecutableFile(atPath: p) {
            throw Missing(description: "\(p) is not installed (scripts/setup.sh --test installs it)")
        }
    }

    private static func start(_ exe: String, _ args: [String], _ extra: [String: String]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        for (k, v) in extra { env[k] = v }
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Waits for the socket, then for a client to be offered `globals`: the shell and the seat are
    /// set up just after the socket appears.
    private func waitUntilOffering(_ globals: [String]) throws {
        guard Wait.forFile(socketPath) else { throw Missing(description: "\(socketPath) did not appear within 10 s") }
        let offered = Wait.until {
            let info = try? Fixtures.run("/usr/bin/weston-info", [], environment: environment)
            return globals.allSatisfy { info?.stdout.contains("interface: '\($0)'") == true }
        }
        guard offered else { throw Missing(description: "\(socketPath) did not offer \(globals) within 10 s") }
    }
}
