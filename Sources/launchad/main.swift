import CEarlyLoad
import Foundation
import LaunchAdCLI
import LaunchAdCore

if launchad_compose_table_emptied() != 0 { ChildEnvironment.markOwn("XCOMPOSEFILE") }
exit(LaunchAdCLI.main(Array(CommandLine.arguments.dropFirst())))
