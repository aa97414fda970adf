import CSDL2
import Foundation
import LaunchAdCore

/// The player's own X11 window until the X server says it is on screen. SDL 2.26 maps a new
/// window and then waits for its MapNotify with no time limit (`XIfEvent` in
/// `X11_ShowWindow`): a window manager that takes the map request and never maps the window
/// held `play` and `launch` there forever, deaf to SIGTERM. Here the window is shown with
/// that wait bounded: when no MapNotify came within `RunDeadline.mapWaitMs`, a thread of this
/// file sends SDL's connection a synthetic one (`XSendEvent`, from its own connection), which
/// ends SDL's wait. SDL then believes the window shown and, with no window manager it
/// recognises, gives it the input focus, which X refuses for a window that is not mapped:
/// Xlib's default handler would end the process, so errors about the window, and those of
/// focus requests, are ignored while it is shown (`X11ErrorWatch`), and errors about it stay
/// ignored until it is on screen. The loop asks `isOnScreen` (viewable: mapped, and its window
/// manager's frame too) before it counts a first frame; a window mapped later (the window
/// manager was only slow) is found then.
final class X11WindowMap {
    /// The X window.
    let window: UInt
    /// SDL's connection (valid while SDL's video runs, which outlives the window).
    private let sdlDisplay: OpaquePointer
    /// Our own connection while the window is not yet known to be on screen.
    private var own: OpaquePointer?
    /// Whether the MapNotify SDL waited for was ours, not the server's.
    let rescued: Bool

    /// X's SetInputFocus request code.
    private static let setInputFocus: UInt8 = 42

    /// Shows `sdlWindow` (created hidden by SDL's X11 driver), ending SDL's wait for the map
    /// after `RunDeadline.mapWaitMs`. nil when the window's X11 ids cannot be had: it is then
    /// shown as SDL shows it.
    static func show(_ sdlWindow: OpaquePointer) -> X11WindowMap? {
        guard let xlib = Xlib.loaded, let (sdlDisplay, window) = ids(of: sdlWindow),
            let own = xlib.openDisplay(xlib.displayString(sdlDisplay))
        else {
            libsdl.SDL_ShowWindow(sdlWindow)
            return nil
        }
        let watch = X11ErrorWatch.shared
        watch.watch(window)
        watch.ignore(request: setInputFocus)
        let rescue = MapRescue(display: own, window: window, afterMs: RunDeadline.mapWaitMs, xlib: xlib)
        libsdl.SDL_ShowWindow(sdlWindow)
        let rescued = rescue.disarm()
        // The refused focus (and anything else about the window) is handled now, while ignored.
        _ = xlib.sync(sdlDisplay, 0)
        watch.unignore(request: setInputFocus)
        let map = X11WindowMap(window: window, sdlDisplay: sdlDisplay, own: own, rescued: rescued)
        // A MapNotify from the server maps the window, not always its window manager's frame:
        // it is on screen once viewable (asked now, and at each turn until it is).
        _ = map.isOnScreen()
        return map
    }

    private init(window: UInt, sdlDisplay: OpaquePointer, own: OpaquePointer, rescued: Bool) {
        self.window = window; self.sdlDisplay = sdlDisplay; self.own = own; self.rescued = rescued
    }

    /// Whether the X server has the window on screen (viewable). Asked at each loop turn until
    /// it is; one round trip on our own connection each time, only after a rescue.
    func isOnScreen() -> Bool {
        guard let own, let xlib = Xlib.loaded else { return true }
        guard xlib.isViewable(own, window) else { return false }
        release()
        return true
    }

    /// A function that takes the window off the screen from any thread, through a connection of
    /// its own (the player's thread may be stuck in SDL's): the supervisor's way to hand the
    /// screen to the app when the ad cannot end itself.
    func takeOff() -> @Sendable () -> Void {
        let window = window
        guard let xlib = Xlib.loaded, let name = xlib.displayString(sdlDisplay).map({ String(cString: $0) }) else { return {} }
        return {
            guard let display = xlib.openDisplay(name) else { return }
            X11ErrorWatch.shared.watch(window)
            _ = xlib.unmapWindow(display, window)
            _ = xlib.sync(display, 0)
            X11ErrorWatch.shared.unwatch(window)
            _ = xlib.closeDisplay(display)
        }
    }

    /// The window is gone (destroyed by SDL just before): what SDL's connection still has about it
    /// is handled while ignored, then the watch ends.
    func windowDestroyed() {
        guard own != nil, let xlib = Xlib.loaded else { return }
        _ = xlib.sync(sdlDisplay, 0)
        release()
    }

    private func release() {
        guard let display = own else { return }
        own = nil
        X11ErrorWatch.shared.unwatch(window)
        _ = Xlib.loaded?.closeDisplay(display)
    }

    deinit { release() }

    /// SDL's X11 connection and the window's X id, from `SDL_GetWindowWMInfo` (SDL_SysWMinfo on
    /// LP64: SDL_version at 0, the subsystem at 4, the X11 display at 8 and window at 16).
    private static func ids(of sdlWindow: OpaquePointer) -> (OpaquePointer, UInt)? {
        let info = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 16)
        defer { info.deallocate() }
        info.initializeMemory(as: UInt8.self, repeating: 0, count: 128)
        var version = SDL_version()
        libsdl.SDL_GetVersion(&version)
        info.storeBytes(of: version.major, as: UInt8.self)
        info.storeBytes(of: version.minor, toByteOffset: 1, as: UInt8.self)
        info.storeBytes(of: version.patch, toByteOffset: 2, as: UInt8.self)
        // SDL_SYSWM_X11 is 2.
        guard libsdl.SDL_GetWindowWMInfo(sdlWindow, UnsafeMutablePointer(OpaquePointer(info))).rawValue != 0,
            info.load(fromByteOffset: 4, as: Int32.self) == 2,
            let display = info.load(fromByteOffset: 8, as: OpaquePointer?.self)
        else { return nil }
        let window = info.load(fromByteOffset: 16, as: UInt.self)
        return window == 0 ? nil : (display, window)
    }
}

/// The thread that ends SDL's wait: it waits (on a condition, until `afterMs`) for `disarm`,
/// and if that does not come first it sends the window's connection a MapNotify for the window.
private final class MapRescue: Sendable {
    private enum Phase { case armed, sending, sent, disarmed }
    private let phase = Locked(Phase.armed)

    init(display: OpaquePointer, window: UInt, afterMs: Int, xlib: Xlib) {
        let phase = phase
        // Addresses cross to the thread as numbers; it uses the connection only while armed,
        // when the caller is inside SDL_ShowWindow and does not.
        let connection = UInt(bitPattern: display)
        let thread = Thread {
            let deadline = Date().addingTimeInterval(Double(afterMs) / 1000)
            let fire = phase.wait(
                until: { $0 != .armed }, deadline: deadline,
                then: { p, _ -> Bool in
                    guard p == .armed else { return false }
                    p = .sending
                    return true
                })
            guard fire, let display = OpaquePointer(bitPattern: connection) else { return }
            xlib.sendMapNotify(display, window)
            phase.change { $0 = .sent }
        }
        thread.name = "launchad-map"
        thread.start()
    }

    /// No rescue from now on; whether one was sent (waits while it is being sent).
    func disarm() -> Bool {
        phase.change { if $0 == .armed { $0 = .disarmed } }
        return phase.wait(until: { $0 != .sending }, then: { p, _ in p == .sent })
    }
}

/// The Xlib functions the window's map needs, from the libX11 SDL's X11 driver loaded (opened
/// again here, never closed). Addresses are kept as numbers so the table crosses threads.
struct Xlib: Sendable {
    private typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias CloseDisplay = @convention(c) (OpaquePointer?) -> Int32
    private typealias DisplayString = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    private typealias SendEvent = @convention(c) (OpaquePointer?, UInt, Int32, Int, UnsafeMutableRawPointer?) -> Int32
    private typealias Flush = @convention(c) (OpaquePointer?) -> Int32
    private typealias Sync = @convention(c) (OpaquePointer?, Int32) -> Int32
    private typealias GetAttributes = @convention(c) (OpaquePointer?, UInt, UnsafeMutableRawPointer) -> Int32
    private typealias UnmapWindow = @convention(c) (OpaquePointer?, UInt) -> Int32

    private let open, close, string, send, flush, syncing, attributes, unmap: UInt

    /// nil when libX11 cannot be loaded (then SDL's X11 driver cannot run either).
    static let loaded: Xlib? = Xlib()

    private init?() {
        guard let lib = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func address(_ name: String) -> UInt { UInt(bitPattern: dlsym(lib, name)) }
        open = address("XOpenDisplay"); close = address("XCloseDisplay"); string = address("XDisplayString")
        send = address("XSendEvent"); flush = address("XFlush"); syncing = address("XSync")
        attributes = address("XGetWindowAttributes"); unmap = address("XUnmapWindow")
        guard ![open, close, string, send, flush, syncing, attributes, unmap].contains(0) else { return nil }
    }

    private func call<T>(_ address: UInt, _: T.Type) -> T { unsafeBitCast(UnsafeRawPointer(bitPattern: address)!, to: T.self) }

    func openDisplay(_ name: UnsafePointer<CChar>?) -> OpaquePointer? { call(open, OpenDisplay.self)(name) }
    func closeDisplay(_ d: OpaquePointer) -> Int32 { call(close, CloseDisplay.self)(d) }
    func displayString(_ d: OpaquePointer) -> UnsafeMutablePointer<CChar>? { call(string, DisplayString.self)(d) }
    func sync(_ d: OpaquePointer, _ discard: Int32) -> Int32 { call(syncing, Sync.self)(d, discard) }
    func unmapWindow(_ d: OpaquePointer, _ w: UInt) -> Int32 { call(unmap, UnmapWindow.self)(d, w) }

    /// `map_state == IsViewable` (XWindowAttributes on LP64: map_state at byte 92); false when the
    /// server has no such window (its error is ignored while the window is watched).
    func isViewable(_ d: OpaquePointer, _ w: UInt) -> Bool {
        let a = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        defer { a.deallocate() }
        a.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
        return call(attributes, GetAttributes.self)(d, w, a) != 0 && a.load(fromByteOffset: 92, as: Int32.self) == 2
    }

    /// A MapNotify for `w` to the clients that watch its structure (SDL's connection). XMapEvent
    /// on LP64: type at 0, send_event at 16, event at 32, window at 40, in a 192-byte XEvent.
    func sendMapNotify(_ d: OpaquePointer, _ w: UInt) {
        let e = UnsafeMutableRawPointer.allocate(byteCount: 192, alignment: 16)
        defer { e.deallocate() }
        e.initializeMemory(as: UInt8.self, repeating: 0, count: 192)
        e.storeBytes(of: Int32(19), as: Int32.self)  // MapNotify
        e.storeBytes(of: Int32(1), toByteOffset: 16, as: Int32.self)
        e.storeBytes(of: w, toByteOffset: 32, as: UInt.self)
        e.storeBytes(of: w, toByteOffset: 40, as: UInt.self)
        // StructureNotifyMask, not propagated.
        _ = call(send, SendEvent.self)(d, w, 0, 1 << 17, e)
        _ = call(flush, Flush.self)(d)
    }
}
