import Foundation
import LaunchAdCore

/// The X server's top-level windows and their `_NET_WM_PID`, through its own connection to
/// `$DISPLAY`. libX11 is loaded at run time (SDL's X11 backend loads the same library the same
/// way), so the package needs no new system library. Owns the connection and the library handle.
final class X11Windows {
    private typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias CloseDisplay = @convention(c) (OpaquePointer?) -> Int32
    private typealias DefaultRoot = @convention(c) (OpaquePointer?) -> UInt
    private typealias InternAtom = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32) -> UInt
    private typealias QueryTree =
        @convention(c) (
            OpaquePointer?, UInt, UnsafeMutablePointer<UInt>, UnsafeMutablePointer<UInt>,
            UnsafeMutablePointer<UnsafeMutablePointer<UInt>?>, UnsafeMutablePointer<UInt32>
        ) -> Int32
    private typealias GetProperty =
        @convention(c) (
            OpaquePointer?, UInt, UInt, Int, Int, Int32, UInt, UnsafeMutablePointer<UInt>,
            UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UInt>, UnsafeMutablePointer<UInt>,
            UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
        ) -> Int32
    private typealias GetAttributes = @convention(c) (OpaquePointer?, UInt, UnsafeMutableRawPointer) -> Int32
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    private typealias Sync = @convention(c) (OpaquePointer?, Int32) -> Int32
    private typealias ErrorHandler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    private typealias SetErrorHandler = @convention(c) (ErrorHandler?) -> ErrorHandler?

    private let library: UnsafeMutableRawPointer
    private let display: OpaquePointer
    private let root: UInt
    private let pidAtom: UInt
    private let queryTree: QueryTree
    private let getProperty: GetProperty
    private let getAttributes: GetAttributes
    private let free: Free
    private let sync: Sync
    private let setErrorHandler: SetErrorHandler
    private let closeDisplay: CloseDisplay

    /// nil when libX11 or the display cannot be had.
    init?() {
        guard let lib = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, _: T.Type) -> T? { dlsym(lib, name).map { unsafeBitCast($0, to: T.self) } }
        guard let open = symbol("XOpenDisplay", OpenDisplay.self), let close = symbol("XCloseDisplay", CloseDisplay.self),
            let defaultRoot = symbol("XDefaultRootWindow", DefaultRoot.self), let intern = symbol("XInternAtom", InternAtom.self),
            let tree = symbol("XQueryTree", QueryTree.self), let property = symbol("XGetWindowProperty", GetProperty.self),
            let attributes = symbol("XGetWindowAttributes", GetAttributes.self), let free = symbol("XFree", Free.self),
            let sync = symbol("XSync", Sync.self), let handler = symbol("XSetErrorHandler", SetErrorHandler.self),
            let display = open(nil)
        else {
            dlclose(lib)
            return nil
        }
        library = lib
        self.display = display
        closeDisplay = close
        root = defaultRoot(display)
        pidAtom = intern(display, "_NET_WM_PID", 0)
        queryTree = tree; getProperty = property; getAttributes = attributes; self.free = free; self.sync = sync
        setErrorHandler = handler
    }

    deinit {
        _ = closeDisplay(display)
        dlclose(library)
    }

    /// The root's children, or for a window manager's frame the client inside it, each with its
    /// `_NET_WM_PID` and whether it is viewable. Windows that vanish meanwhile are skipped: X
    /// errors are ignored for the duration (the default handler would end the process).
    func topLevel() -> [HandOff.Window] {
        let previous = setErrorHandler { _, _ in 0 }
        defer {
            _ = sync(display, 0)
            _ = setErrorHandler(previous)
        }
        var out: [HandOff.Window] = []
        for frame in children(of: root) {
            let viewable = isViewable(frame)
            if let pid = pid(of: frame) {
                out.append(HandOff.Window(pid: pid, viewable: viewable, id: UInt32(truncatingIfNeeded: frame)))
                continue
            }
            let clients = children(of: frame)
            // A bare top-level window with no children is listed as itself.
            if clients.isEmpty { out.append(HandOff.Window(pid: nil, viewable: viewable, id: UInt32(truncatingIfNeeded: frame))) }
            for client in clients {
                out.append(
                    HandOff.Window(pid: pid(of: client), viewable: viewable && isViewable(client), id: UInt32(truncatingIfNeeded: client)))
            }
        }
        return out
    }

    private func children(of window: UInt) -> [UInt] {
        var rootReturn: UInt = 0, parent: UInt = 0, count: UInt32 = 0
        var list: UnsafeMutablePointer<UInt>?
        guard queryTree(display, window, &rootReturn, &parent, &list, &count) != 0, let list else { return [] }
        defer { _ = free(list) }
        return Array(UnsafeBufferPointer(start: list, count: Int(count)))
    }

    private func pid(of window: UInt) -> Int32? {
        var type: UInt = 0, format: Int32 = 0, items: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        // XA_CARDINAL is atom 6; 32-bit properties come back as C longs.
        guard getProperty(display, window, pidAtom, 0, 1, 0, 6, &type, &format, &items, &after, &data) == 0, let data else { return nil }
        defer { _ = free(data) }
        guard items == 1, format == 32 else { return nil }
        return Int32(truncatingIfNeeded: data.withMemoryRebound(to: Int.self, capacity: 1) { $0.pointee })
    }

    /// `map_state == IsViewable` from XWindowAttributes, whose LP64 layout puts it at byte 92.
    private func isViewable(_ window: UInt) -> Bool {
        attributes(of: window) { $0.load(fromByteOffset: 92, as: Int32.self) == 2 } ?? false
    }

    /// A window's size (XWindowAttributes' width and height, at bytes 8 and 12), or nil when
    /// the server has no such window: the BadWindow error is ignored, not fatal, as in `topLevel`.
    func size(of window: UInt) -> Size? {
        let previous = setErrorHandler { _, _ in 0 }
        defer {
            _ = sync(display, 0)
            _ = setErrorHandler(previous)
        }
        return attributes(of: window) {
            Size(width: Int($0.load(fromByteOffset: 8, as: Int32.self)), height: Int($0.load(fromByteOffset: 12, as: Int32.self)))
        }
    }

    /// Whether `window` can be drawn in: an InputOutput window (an InputOnly one has no pixels;
    /// SDL's drawing in it fails with an X error about SDL's own graphics context, every frame).
    /// XWindowAttributes' `class` is at byte 40 in the LP64 layout; InputOnly is 2.
    func isDrawable(_ window: UInt) -> Bool {
        let previous = setErrorHandler { _, _ in 0 }
        defer {
            _ = sync(display, 0)
            _ = setErrorHandler(previous)
        }
        return attributes(of: window) { $0.load(fromByteOffset: 40, as: Int32.self) != 2 } ?? false
    }

    /// Whether the X server at `$DISPLAY` answers within `seconds`, asked on a thread of its own:
    /// a server that takes the connection and never answers holds Xlib's calls for good, and the
    /// thread asking must never be an application's. A thread stuck there is left behind.
    /// Nil when it could not be reached at all (no libX11, no display: an answer, just not a yes).
    static func serverAnswers(within seconds: Double) -> Bool? {
        let answer = Locked<Bool??>(nil)
        let probe = Thread {
            let reachable = X11Windows().map { x in withExtendedLifetime(x) { x.roundTrip() } }
            answer.change { $0 = .some(reachable) }
        }
        probe.name = "launchad-x11-probe"
        probe.start()
        return answer.wait(until: { $0 != nil }, deadline: Date(timeIntervalSinceNow: seconds), then: { a, _ in a ?? false })
    }

    /// One request answered by the server.
    private func roundTrip() -> Bool {
        _ = sync(display, 0)
        return true
    }

    /// Runs `body` with X errors ignored, not fatal (Xlib's default handler, which SDL's own
    /// passes them on to, ends the process): for SDL's calls on a window that may vanish meanwhile.
    func ignoringErrors<T>(_ body: () throws -> T) rethrows -> T {
        let previous = setErrorHandler { _, _ in 0 }
        defer { _ = setErrorHandler(previous) }
        return try body()
    }

    private func attributes<T>(of window: UInt, _ read: (UnsafeMutableRawPointer) -> T) -> T? {
        let attributes = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        defer { attributes.deallocate() }
        attributes.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
        guard window != 0, getAttributes(display, window, attributes) != 0 else { return nil }
        return read(attributes)
    }
}
