import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import LaunchAdMedia
import LaunchAdPlayer

/// The C libraries a command needs, asked for before it starts: a missing or older one is one
/// line on stderr (and for `play` and `launch` their `error` and `end` events) and exit status
/// 127, never a process that stops mid-run with its `end` unwritten. libcurl is asked by each
/// request (a fetch that fails like any other), libsodium by each refresh that checks a signature.
enum LibraryCheck {
    /// FFmpeg and SDL2 (with SDL2_ttf), for a player; said on stderr when one is missing.
    static func player() -> String? { said(FFmpegLibraries.problem() ?? SDLLibraries.problem()) }

    /// What `command` needs before it starts: nil when it is there (or the command needs none).
    static func problem(for command: Command) -> String? {
        switch command {
        case .probe: return said(FFmpegLibraries.problem())
        case .validate, .snapshot: return said(FFmpegLibraries.problem(filters: true))
        case .preview: return said(FFmpegLibraries.problem() ?? SDLLibraries.problem())
        case .manifest: return said(Sodium.problem)
        default: return nil
        }
    }

    private static func said(_ problem: String?) -> String? {
        if let problem { FileHandle.standardError.write(TerminalText.line(problem)) }
        return problem
    }
}
