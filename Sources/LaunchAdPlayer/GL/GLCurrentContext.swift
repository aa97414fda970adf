import Glibc

/// Which context is current on the calling thread, as the windowing system names it:
/// eglGetCurrentContext or glXGetCurrentContext, taken from the libEGL or GLX library the process
/// has already loaded (dlopen with RTLD_NOLOAD: never one loaded for this). Never through the
/// application's get_proc_address: glvnd's glXGetProcAddressARB and eglGetProcAddress hand out a
/// GL dispatch stub for any name of the other API, and calling one returns garbage that would
/// pass for a context, so the ad would draw in, and delete names of, another context.
final class GLCurrentContext {
    /// The library handle (held open, so `current` stays callable) and its function.
    private let handle: UnsafeMutableRawPointer
    private let current: @convention(c) () -> UnsafeMutableRawPointer?

    /// The libraries that name a current context, with their function, in the order asked.
    private static let apis = [
        ("libEGL.so.1", "eglGetCurrentContext"), ("libGLX.so.0", "glXGetCurrentContext"), ("libGL.so.1", "glXGetCurrentContext")
    ]

    private init(handle: UnsafeMutableRawPointer, current: @escaping @convention(c) () -> UnsafeMutableRawPointer?) {
        self.handle = handle
        self.current = current
    }

    deinit { dlclose(handle) }

    /// The context current now, and the one of the process's windowing libraries that names it;
    /// nil when none does (no EGL or GLX loaded, or another API's context: then the ad cannot
    /// tell its context from another one, and docs/embedding.md says so).
    static func now() -> (query: GLCurrentContext, context: UnsafeMutableRawPointer)? {
        for (library, function) in apis {
            guard let handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD) else { continue }
            guard let symbol = dlsym(handle, function) else {
                dlclose(handle)
                continue
            }
            let query = GLCurrentContext(
                handle: handle, current: unsafeBitCast(symbol, to: (@convention(c) () -> UnsafeMutableRawPointer?).self))
            if let context = query.current() { return (query, context) }
        }
        return nil
    }

    /// The context current on this thread now (nil: none of this API).
    func context() -> UnsafeMutableRawPointer? { current() }
}
