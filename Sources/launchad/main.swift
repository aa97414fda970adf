import CEarlyLoad
import Foundation
import LaunchAdCLI
import LaunchAdCore
import LaunchAdPlayer

/// The arguments after the program's name: the constructor's copy (Sources/CEarlyLoad), since
/// the static runtime's CommandLine.arguments walks back from `environ`, which setenv moved.
func commandLineArguments() -> [String] {
    let count = Int(launchad_argument_count())
    guard count > 0 else { return Array(CommandLine.arguments.dropFirst()) }
    return (1..<count).compactMap { launchad_argument(Int32($0)).map { String(cString: $0) } }
}

if launchad_compose_table_emptied() != 0 { ChildEnvironment.markOwn("XCOMPOSEFILE") }
// The process is the command line's own: ALSA's error lines are kept from stderr.
ProcessAudio.quietALSA()
QuitSignal.install(
    take: { launchad_take_quit_signal() }, first: { launchad_first_quit_signal_noted() }, fd: launchad_quit_signal_fd())
exit(LaunchAdCLI.main(commandLineArguments()))
