import Foundation
import LaunchAdCore

/// Test seam: a debug build (the tests') blocks the player's thread for good at the step that
/// `LAUNCHAD_TEST_BLOCK_PLAYER` names (`startingSound`, `openingWindow`, or `turning`: the first
/// loop turn after the first frame), as a call into a driver, a display server or a sound server
/// that never returns would, so that the tests can show the run ends and the app starts without
/// it. Only debug builds read it (`LAUNCHAD_TEST_SEAMS`, defined by Package.swift for the debug
/// configuration): a release build has no such variable and never blocks here.
enum PlayerTestSeam {
    #if LAUNCHAD_TEST_SEAMS
        private static let blockedStep = ProcessInfo.processInfo.environment["LAUNCHAD_TEST_BLOCK_PLAYER"]

        static func block(at step: RunDeadline.Step) {
            guard blockedStep == "\(step)" else { return }
            // Stuck as a C call that never returns is: signals are handled, and it goes on waiting.
            while true { pause() }
        }
    #else
        @inline(__always) static func block(at step: RunDeadline.Step) {}
    #endif
}
