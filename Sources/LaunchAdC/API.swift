import CLaunchAd
import Foundation
import LaunchAdCore
import LaunchAdKit
import LaunchAdPlayer

// launchad.h's functions: each a thin shell over LaunchAdKit's `LaunchAd`, through the handle.

/// One `launchad *`: the ad and the host's event callback. Every field is reached under a
/// lock or through the ad's own (which lets one call in at a time), so a handle is safe from
/// any thread.
final class CHandle: Sendable {
    let ad: LaunchAd
    /// The host's event callback and its user pointer (as an address: the host's to keep valid).
    private let callback = Locked<(fn: launchad_event_fn?, user: UInt)>((nil, 0))

    init(_ ad: LaunchAd) {
        self.ad = ad
        let callback = self.callback
        ad.onEvent = { e in
            let (fn, user) = callback.withLock { $0 }
            guard let fn else { return }
            let c = CEvent(e)
            var event = c.event
            fn(UnsafeMutableRawPointer(bitPattern: user), &event)
            c.free()
        }
    }

    func setCallback(_ fn: launchad_event_fn?, _ user: UnsafeMutableRawPointer?) {
        callback.withLock { $0 = (fn, UInt(bitPattern: user)) }
    }

    static func from(_ p: OpaquePointer?) -> CHandle? {
        p.map { Unmanaged<CHandle>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }
}

/// The last `launchad_create` refusal on this thread, kept for `launchad_last_usage_error`: per
/// thread, as errno is, so that two threads creating ads never read each other's (and nothing is
/// shared between handles).
private final class UsageErrorText {
    let text: UnsafeMutablePointer<CChar>
    init(_ message: String) { text = strdup(message) }
    deinit { free(text) }

    private static let key = "launchad.lastUsageError"
    static var current: UsageErrorText? {
        get { Thread.current.threadDictionary[key] as? UsageErrorText }
        set { Thread.current.threadDictionary[key] = newValue }
    }
}

private func code(_ e: launchad_error) -> Int32 { e.rawValue }

@_cdecl("launchad_api_version")
public func launchad_api_version() -> UInt32 { UInt32((LAUNCHAD_API_VERSION_MAJOR << 16) | LAUNCHAD_API_VERSION_MINOR) }

@_cdecl("launchad_event_schema_version")
public func launchad_event_schema_version() -> Int32 { Int32(LaunchEvent.schemaVersion) }

@_cdecl("launchad_create")
public func launchad_create(
    _ argc: Int32, _ argv: UnsafePointer<UnsafePointer<CChar>?>?, _ errorOut: UnsafeMutablePointer<Int32>?
) -> OpaquePointer? {
    var args: [String] = []
    if let argv {
        for i in 0..<Int(max(0, argc)) {
            // A NULL among the arguments is a host's mistake, said as one, not skipped.
            guard let a = argv[i] else {
                UsageErrorText.current = UsageErrorText("argument \(i) is NULL")
                errorOut?.pointee = code(LAUNCHAD_ERROR_INVALID_ARGUMENT)
                return nil
            }
            args.append(String(cString: a))
        }
    }
    do {
        let ad = try LaunchAd(arguments: args)
        errorOut?.pointee = code(LAUNCHAD_OK)
        return OpaquePointer(Unmanaged.passRetained(CHandle(ad)).toOpaque())
    } catch {
        UsageErrorText.current = UsageErrorText(error.message)
        errorOut?.pointee = code(LAUNCHAD_ERROR_INVALID_ARGUMENT)
        return nil
    }
}

@_cdecl("launchad_last_usage_error")
public func launchad_last_usage_error() -> UnsafePointer<CChar>? { UsageErrorText.current.map { UnsafePointer($0.text) } }

@_cdecl("launchad_set_event_callback")
public func launchad_set_event_callback(_ p: OpaquePointer?, _ callback: launchad_event_fn?, _ user: UnsafeMutableRawPointer?) {
    CHandle.from(p)?.setCallback(callback, user)
}

@_cdecl("launchad_set_wakeup_callback")
public func launchad_set_wakeup_callback(_ p: OpaquePointer?, _ callback: launchad_wakeup_fn?, _ user: UnsafeMutableRawPointer?) {
    guard let h = CHandle.from(p) else { return }
    guard let callback else { return h.ad.setWakeup(nil) }
    let address = UInt(bitPattern: user)
    h.ad.setWakeup { callback(UnsafeMutableRawPointer(bitPattern: address)) }
}

@_cdecl("launchad_prepare")
public func launchad_prepare(_ p: OpaquePointer?, _ timeout: Double) -> Int32 {
    guard let h = CHandle.from(p) else { return code(LAUNCHAD_ERROR_INVALID_ARGUMENT) }
    do { try h.ad.prepareNow(timeout: timeout) } catch {
        switch error {
        case .noAd: return code(LAUNCHAD_ERROR_NO_AD)
        case .timeout: return code(LAUNCHAD_ERROR_TIMEOUT)
        case .libraryMissing: return code(LAUNCHAD_ERROR_LIBRARY_MISSING)
        case .reentrant, .ended: return code(LAUNCHAD_ERROR_INVALID_STATE)
        }
    }
    return code(LAUNCHAD_OK)
}

@_cdecl("launchad_attach_sdl")
public func launchad_attach_sdl(_ p: OpaquePointer?, _ window: UnsafeMutableRawPointer?, _ renderer: UnsafeMutableRawPointer?) -> Int32 {
    guard let h = CHandle.from(p), let window, let renderer else { return code(LAUNCHAD_ERROR_INVALID_ARGUMENT) }
    do { try h.ad.attach(PlayerOutput.host(window: OpaquePointer(window), renderer: OpaquePointer(renderer))) } catch {
        return code(LAUNCHAD_ERROR_INVALID_STATE)
    }
    return code(LAUNCHAD_OK)
}

@_cdecl("launchad_attach_buffer")
public func launchad_attach_buffer(_ p: OpaquePointer?, _ width: Int32, _ height: Int32) -> Int32 {
    guard let h = CHandle.from(p), (1...16384).contains(width), (1...16384).contains(height) else {
        return code(LAUNCHAD_ERROR_INVALID_ARGUMENT)
    }
    do { try h.ad.attach(bufferOf: Size(width: Int(width), height: Int(height))) } catch { return code(LAUNCHAD_ERROR_INVALID_STATE) }
    return code(LAUNCHAD_OK)
}

@_cdecl("launchad_attach_x11")
public func launchad_attach_x11(_ p: OpaquePointer?, _ window: UInt) -> Int32 {
    guard let h = CHandle.from(p), window != 0 else { return code(LAUNCHAD_ERROR_INVALID_ARGUMENT) }
    do { try h.ad.attach(x11Window: window) } catch {
        switch error {
        case X11AttachError.noDisplay, X11AttachError.noSuchWindow, X11AttachError.serverSilent: return code(LAUNCHAD_ERROR_NO_WINDOW)
        case is X11AttachError: return code(LAUNCHAD_ERROR_RENDER)
        default: return code(LAUNCHAD_ERROR_INVALID_STATE)
        }
    }
    return code(LAUNCHAD_OK)
}

@_cdecl("launchad_frame")
public func launchad_frame(
    _ p: OpaquePointer?, _ pixels: UnsafeMutablePointer<UnsafeRawPointer?>?, _ width: UnsafeMutablePointer<Int32>?,
    _ height: UnsafeMutablePointer<Int32>?, _ pitch: UnsafeMutablePointer<Int32>?
) -> Int32 {
    guard let h = CHandle.from(p) else { return code(LAUNCHAD_ERROR_INVALID_ARGUMENT) }
    guard let (pointer, size, rowBytes) = (try? h.ad.bufferPixels()) ?? nil else { return code(LAUNCHAD_ERROR_INVALID_STATE) }
    pixels?.pointee = pointer
    width?.pointee = Int32(size.width)
    height?.pointee = Int32(size.height)
    pitch?.pointee = Int32(rowBytes)
    return code(LAUNCHAD_OK)
}

@_cdecl("launchad_present")
public func launchad_present(_ p: OpaquePointer?) -> Int32 {
    guard let h = CHandle.from(p) else { return code(LAUNCHAD_ERROR_INVALID_ARGUMENT) }
    do { try h.ad.present() } catch { return code(LAUNCHAD_ERROR_INVALID_STATE) }
    return code(LAUNCHAD_OK)
}

@_cdecl("launchad_render")
public func launchad_render(_ p: OpaquePointer?) -> Int32 {
    guard let h = CHandle.from(p) else { return code(LAUNCHAD_ERROR_INVALID_ARGUMENT) }
    do { return Int32(try h.ad.render().rawValue) } catch { return code(LAUNCHAD_ERROR_INVALID_STATE) }
}

@_cdecl("launchad_poll_events")
public func launchad_poll_events(_ p: OpaquePointer?) -> Int32 {
    guard let h = CHandle.from(p) else { return code(LAUNCHAD_ERROR_INVALID_ARGUMENT) }
    if h.ad.isInsideCall { return code(LAUNCHAD_ERROR_INVALID_STATE) }
    return Int32(h.ad.pollEvents())
}

@_cdecl("launchad_input")
public func launchad_input(_ p: OpaquePointer?, _ kind: launchad_input_kind, _ x: Double, _ y: Double) -> Int32 {
    guard let h = CHandle.from(p), let input = HostInput.session(kind, x: x, y: y) else { return code(LAUNCHAD_ERROR_INVALID_ARGUMENT) }
    h.ad.input(input)
    return code(LAUNCHAD_OK)
}

@_cdecl("launchad_dismiss")
public func launchad_dismiss(_ p: OpaquePointer?) -> Int32 {
    guard let h = CHandle.from(p) else { return code(LAUNCHAD_ERROR_INVALID_ARGUMENT) }
    h.ad.dismiss()
    return code(LAUNCHAD_OK)
}

@_cdecl("launchad_destroy")
public func launchad_destroy(_ p: OpaquePointer?) {
    guard let p else { return }
    // From inside the event callback the close waits for the delivering call to return; the
    // handle lives until then (that call holds it).
    let handle = Unmanaged<CHandle>.fromOpaque(UnsafeRawPointer(p))
    handle.takeUnretainedValue().ad.close()
    handle.release()
}

// launchad_strerror is written in C, beside the header (Sources/CLaunchAd): static texts.

/// The host's inputs as session inputs.
enum HostInput {
    static func session(_ kind: launchad_input_kind, x: Double, y: Double) -> SessionInput? {
        switch kind {
        case LAUNCHAD_INPUT_POINTER_UP: return x.isFinite && y.isFinite ? .pointerUp(x: x, y: y) : nil
        case LAUNCHAD_INPUT_KEY_ESCAPE: return .key(.escape)
        case LAUNCHAD_INPUT_KEY_MUTE: return .key(.mute)
        case LAUNCHAD_INPUT_KEY_PAUSE: return .key(.pauseToggle)
        case LAUNCHAD_INPUT_FOCUS_LOST: return .pause(.focusLost)
        case LAUNCHAD_INPUT_FOCUS_GAINED: return .resume(.focusLost)
        case LAUNCHAD_INPUT_MINIMIZED: return .pause(.minimized)
        case LAUNCHAD_INPUT_RESTORED: return .resume(.minimized)
        case LAUNCHAD_INPUT_HIDDEN: return .pause(.hidden)
        case LAUNCHAD_INPUT_SHOWN: return .resume(.hidden)
        case LAUNCHAD_INPUT_CLOSE: return .closeRequested
        case LAUNCHAD_INPUT_MUTE: return .control(.mute)
        case LAUNCHAD_INPUT_UNMUTE: return .control(.unmute)
        default: return nil
        }
    }
}
