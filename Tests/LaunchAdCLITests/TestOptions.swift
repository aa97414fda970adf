import LaunchAdCore

@testable import LaunchAdCLI
@testable import LaunchAdEngine

/// Options exactly as the command line gives them, for `ad.mp4` (or `ad.png`).
func options(_ args: [String] = [], file: String = "ad.mp4") -> PlayOptions {
    do {
        guard let o = try PlayOptions.parse([file] + args) else { fatalError("--help in test options") }
        return o
    } catch {
        fatalError("bad test options \(args): \(error)")
    }
}
