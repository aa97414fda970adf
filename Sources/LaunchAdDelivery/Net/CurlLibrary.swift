import CCurl

/// libcurl's functions, the library opened on this process's first HTTP request rather than at
/// start-up (Sources/CLazyLoad/lazy_load.h): a local `play` never loads it. A missing library
/// ends the process with one line and exit status 127.
let libcurl = launchad_libcurl().pointee
