import LaunchAdCLI
import Foundation

exit(LaunchAdCLI.main(Array(CommandLine.arguments.dropFirst())))
