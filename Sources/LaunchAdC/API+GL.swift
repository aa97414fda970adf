import CLaunchAd
import LaunchAdKit
import LaunchAdPlayer

// launchad.h's OpenGL section (API 0.3): the ad drawn into the host's own GL context.

@_cdecl("launchad_attach_gl")
public func launchad_attach_gl(_ p: OpaquePointer?, _ getProcAddress: launchad_gl_get_proc_address_fn?, _ user: UnsafeMutableRawPointer?) -> Int32 {
    guard let h = CHandle.from(p), let getProcAddress else { return LAUNCHAD_ERROR_INVALID_ARGUMENT.rawValue }
    // Another output (a renderer, a buffer, an X11 window); a GL one is attached again (a new context).
    guard !h.attached || h.ad.hasGLOutput else { return LAUNCHAD_ERROR_INVALID_STATE.rawValue }
    do {
        try h.ad.attach(openGL: { name in name.withCString { getProcAddress(user, $0) } })
    } catch {
        return LAUNCHAD_ERROR_RENDER.rawValue
    }
    h.attached = true
    return LAUNCHAD_OK.rawValue
}

@_cdecl("launchad_detach_gl")
public func launchad_detach_gl(_ p: OpaquePointer?) -> Int32 {
    guard let h = CHandle.from(p) else { return LAUNCHAD_ERROR_INVALID_ARGUMENT.rawValue }
    guard h.ad.hasGLOutput else { return LAUNCHAD_ERROR_INVALID_STATE.rawValue }
    h.ad.detachGL()
    return LAUNCHAD_OK.rawValue
}
