import CFFmpeg
import Foundation
import Synchronization

// FFmpeg's libraries, each opened on its first use by this process rather than at start-up
// (Sources/CLazyLoad/lazy_load.h): `launchad --version` never maps libavformat's ~130
// dependencies, and `play` opens libavformat on its read thread while the window opens.
// A command asks `FFmpegLibraries.problem` before it starts, so a missing or older library is
// reported through its normal end (a `play`'s `error` and `end`), never found mid-run.

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
        // Filling the tables through `problem`: a missing library is then said by the command's
        // own check, never by an exit on this thread.
        Thread.detachNewThread { _ = problem() }
    }

    private static let started = Atomic(false)

    /// Nil when the libraries a command needs (with `filters`, libavfilter too) and every
    /// function launchad calls in them are there; else why not, in one line.
    public static func problem(filters: Bool = false) -> String? {
        var checks = [
            launchad_libavutil_problem(), launchad_libavcodec_problem(), launchad_libavformat_problem(),
            launchad_libswscale_problem(), launchad_libswresample_problem()
        ]
        if filters { checks.append(launchad_libavfilter_problem()) }
        return checks.lazy.compactMap { $0.map { String(cString: $0) } }.first
    }
}
