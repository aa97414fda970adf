import Foundation
import LaunchAdCLI

exit(LaunchAdCLI.main(Array(CommandLine.arguments.dropFirst())))
