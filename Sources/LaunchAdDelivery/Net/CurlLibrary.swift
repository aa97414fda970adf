import CCurl

/// libcurl's functions, the library opened on this process's first HTTP request rather than at
/// start-up (Sources/CLazyLoad/lazy_load.h): a local `play` never loads it. Every request asks
/// `CurlLibrary.problem` first, so a missing libcurl is a failed fetch, never an exit mid-run.
let libcurl = launchad_libcurl().pointee

enum CurlLibrary {
    /// Nil when libcurl and every function launchad calls in it are there; else why not.
    static var problem: String? {
        [launchad_libcurl_problem(), launchad_libcurl_variadic_problem()].lazy.compactMap { $0.map { String(cString: $0) } }.first
    }
}
