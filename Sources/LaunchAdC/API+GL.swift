import CLaunchAd
import LaunchAdKit
import LaunchAdPlayer

// launchad.h's OpenGL section (API 0.3): the ad drawn into the host's own GL context.

@_cdecl("launchad_attach_gl")
public func launchad_attach_gl(_ p: OpaquePointer?, _ getProcAddress: launchad_gl_get_proc_address_fn?, _ user: UnsafeMutableRawPointer?)
    -> Int32
{
    guard let h = CHandle.from(p), let getProcAddress else { return LAUNCHAD_ERROR_INVALID_ARGUMENT.rawValue }
    do {
        try h.ad.attach(openGL: { name in name.withCString { getProcAddress(user, $0) } })
    } catch is GLAttachError {
        return LAUNCHAD_ERROR_RENDER.rawValue
    } catch {
        // Another output, one after present, from inside the event callback, after the end.
        return LAUNCHAD_ERROR_INVALID_STATE.rawValue
    }
    return LAUNCHAD_OK.rawValue
}

@_cdecl("launchad_detach_gl")
public func launchad_detach_gl(_ p: OpaquePointer?) -> Int32 {
    guard let h = CHandle.from(p) else { return LAUNCHAD_ERROR_INVALID_ARGUMENT.rawValue }
    do { try h.ad.detachGL() } catch { return LAUNCHAD_ERROR_INVALID_STATE.rawValue }
    return LAUNCHAD_OK.rawValue
}
