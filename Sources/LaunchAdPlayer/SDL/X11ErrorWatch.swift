import Foundation
import LaunchAdCore

/// X errors about the applications' X11 windows an ad draws in, caught rather than fatal. A
/// window an application destroys while its ad plays makes SDL's next drawing fail
/// asynchronously (BadDrawable), and Xlib's default handler, to which SDL's own passes every
/// error on, would end the application. While a window is watched, the process's X error
/// handler is one that notes an error about that window (the ad then ends with `window_lost`)
/// and passes any other error to the handler it replaced; it is put back when the last watched
/// window goes, unless someone installed another one meanwhile. The player's own window is
/// watched too while it is not known to be on screen (`X11WindowMap`): SDL sets the input focus
/// on a window it believes shown, which X refuses for one a window manager never mapped.
final class X11ErrorWatch: Sendable {
    /// `int (*)(Display *, XErrorEvent *)`.
    private typealias Handler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    private typealias SetHandler = @convention(c) (Handler?) -> Handler?

    private struct State {
        var watched: [UInt: Int] = [:]
        var lost: Set<UInt> = []
        /// Requests whose errors are ignored meanwhile (their count of holders), whatever they
        /// name: X does not always say which window an error is about (a refused focus).
        var requests: [UInt8: Int] = [:]
        /// The handler replaced (its address), while ours is installed.
        var previous: UInt?
    }

    /// The process's one watch (X error handlers are process-wide).
    static let shared = X11ErrorWatch()

    private let state = Locked(State())
    /// XSetErrorHandler's address in libX11 (loaded by SDL's X11 driver already; kept open).
    private let setHandler: UInt

    private init() {
        let lib = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL)
        setHandler = UInt(bitPattern: lib.flatMap { dlsym($0, "XSetErrorHandler") })
    }

    private func set(_ h: Handler?) -> Handler? {
        guard let f = UnsafeRawPointer(bitPattern: setHandler) else { return nil }
        return unsafeBitCast(f, to: SetHandler.self)(h)
    }

    private static let ours: Handler = { display, event in X11ErrorWatch.shared.handle(display, event) }

    /// Watches `window` until `unwatch`; errors about it from now on mark it lost.
    func watch(_ window: UInt) {
        state.withLock { s in
            s.watched[window, default: 0] += 1
            s.lost.remove(window)
            if s.previous == nil { s.previous = UInt(bitPattern: unsafeBitCast(set(Self.ours), to: UnsafeRawPointer?.self)) }
        }
    }

    func unwatch(_ window: UInt) {
        state.withLock { s in
            s.watched[window, default: 1] -= 1
            if s.watched[window] == 0 { s.watched[window] = nil }
            s.lost.remove(window)
            guard s.watched.isEmpty, let previous = s.previous else { return }
            s.previous = nil
            let replaced = set(unsafeBitCast(UnsafeRawPointer(bitPattern: previous), to: Handler?.self))
            // Someone installed a handler over ours meanwhile: theirs stays.
            if let replaced, unsafeBitCast(replaced, to: UnsafeRawPointer.self) != unsafeBitCast(Self.ours, to: UnsafeRawPointer.self) {
                _ = set(replaced)
            }
        }
    }

    /// Errors of the `request` (an X protocol request code) are ignored until `unignore`.
    func ignore(request: UInt8) {
        state.withLock { $0.requests[request, default: 0] += 1 }
    }

    func unignore(request: UInt8) {
        state.withLock { s in
            s.requests[request, default: 1] -= 1
            if s.requests[request] == 0 { s.requests[request] = nil }
        }
    }

    /// Whether an X error about `window` came since it was watched.
    func isLost(_ window: UInt) -> Bool { state.withLock { $0.lost.contains(window) } }

    /// XErrorEvent (LP64): int type at 0, Display * at 8, XID resourceid at 16, unsigned char
    /// request_code at 33.
    private func handle(_ display: OpaquePointer?, _ event: UnsafeMutableRawPointer?) -> Int32 {
        let resource = event?.load(fromByteOffset: 16, as: UInt.self) ?? 0
        let request = event?.load(fromByteOffset: 33, as: UInt8.self) ?? 0
        let previous: UInt? = state.withLock { s in
            if s.requests[request] != nil { return nil }
            if s.watched[resource] != nil {
                s.lost.insert(resource)
                return nil
            }
            return s.previous
        }
        guard let previous, let p = UnsafeRawPointer(bitPattern: previous) else { return 0 }
        return unsafeBitCast(p, to: Handler.self)(display, event)
    }
}
