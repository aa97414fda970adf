import CFFmpeg
import Foundation
import Synchronization

// FFmpeg's libraries, each opened on its first use by this process rather than at start-up
// (Sources/CLazyLoad/lazy_load.h): `launchad --version` never maps libavformat's ~130
// dependencies, and `play` opens libavformat on its read thread while the window opens.
// A missing or older library ends the process with one line and exit status 127.

/// libavutil's functions.
let libavutil = launchad_libavutil().pointee
/// libavcodec's functions.
let libavcodec = launchad_libavcodec().pointee
/// libavformat's functions.
let libavformat = launchad_libavformat().pointee
/// libswscale's functions.
let libswscale = launchad_libswscale().pointee
/// libswresample's functions.
let libswresample = launchad_libswresample().pointee
/// libavfilter's functions: only the analyses (validate, snapshot) open it.
let libavfilter = launchad_libavfilter().pointee

/// Opening FFmpeg ahead of its first use.
public enum FFmpegLibraries {
    /// Fills the tables of libavformat (and with it libavcodec and libavutil), libswscale and
    /// libswresample on a thread of their own and returns at once: `play` and `launch` call it
    /// first, while their libraries are already loading from the constructor in
    /// Sources/CEarlyLoad, so the read thread finds them ready. Only the first call starts it.
    public static func openInBackground() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        Thread.detachNewThread { _ = (libavformat, libavcodec, libavutil, libswscale, libswresample) }
    }

    private static let started = Atomic(false)
}
