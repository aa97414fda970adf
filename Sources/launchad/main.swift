import CEarlyLoad
import Foundation
import LaunchAdCLI
import LaunchAdCore

if launchad_compose_table_emptied() != 0 { ChildEnvironment.markOwn("XCOMPOSEFILE") }
QuitSignal.install { launchad_take_quit_signal() }
exit(LaunchAdCLI.main(Array(CommandLine.arguments.dropFirst())))
