import CSDL2
import Foundation
import LaunchAdCore

/// SDL's audio subsystem, started once for the process and kept: each start after a stop makes
/// SDL 2.26 list its devices anew and drop the old list (valgrind: ~128 bytes a cycle, which an
/// application showing an ad at every start of a screen would pile up). Devices are opened and
/// closed per ad (AudioDevice).
enum SDLAudio {
    /// Whether the subsystem is up (started on first use, thread-safely). ALSA's own error lines
    /// are kept from stderr first (``alsaComplaint`` has the first one).
    static let started: Bool = {
        // libasound's error handler is the process's: taken only when the command line owns the
        // process (`ProcessAudio.quietALSA`), never in an application that embeds LaunchAd.
        let quiet =
            ProcessAudio.alsaQuieted.withLock { $0 } && mayUseALSA(ProcessInfo.processInfo.environment["SDL_AUDIODRIVER"])
            && launchad_quiet_alsa() != 0
        let up = SDLHints.initSubSystem(SDL_INIT_AUDIO) == 0
        // Listing the devices logs what ALSA's default handler would have kept quiet ("cannot
        // find card '$CARD'"); the line that counts comes when a device is opened.
        if quiet { launchad_alsa_forget() }
        return up
    }()

    /// Whether SDL may try ALSA: no driver named, or a list that names it. A run with
    /// `SDL_AUDIODRIVER=dummy` (or pulseaudio alone) never loads libasound.
    static func mayUseALSA(_ driver: String?) -> Bool {
        guard let driver, !driver.isEmpty else { return true }
        return driver.lowercased().split(separator: ",").contains("alsa")
    }

    /// The first line ALSA reported (`cannot find card '0'`), nil when it said nothing.
    static var alsaComplaint: String? {
        let line = String(cString: launchad_alsa_error_line())
        return line.isEmpty ? nil : line
    }
}

/// What the process that owns itself (the `launchad` command, not an application embedding
/// LaunchAd) lets the player change of it.
public enum ProcessAudio {
    static let alsaQuieted = Locked(false)

    /// ALSA's own error lines ("cannot find card '0'", eight of them without a sound card) are
    /// kept from stderr, the first one said in `audio_unavailable` instead: libasound's error
    /// handler is replaced for the process. Called by the command line before anything plays.
    public static func quietALSA() { alsaQuieted.withLock { $0 = true } }
}
