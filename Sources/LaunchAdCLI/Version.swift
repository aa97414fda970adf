import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import LaunchAdMedia
import LaunchAdPlayer

extension Command {
    /// The release (written once, in LaunchAdCore's Version.swift: the HTTP client's User-Agent needs it too).
    public static let versionString = LaunchAdVersion.versionString
}

/// What `launchad --version` prints: the release and the version of its event lines' schema,
/// and the libraries this process runs against (asked of each at run time, not the headers it
/// was built with), for bug reports.
enum VersionText {
    static var full: String {
        """
        launchad \(Command.versionString) (event schema \(LaunchEvent.schemaVersion))
        FFmpeg \(FFmpegVersion.runtime)
        SDL \(SDLVersion.runtime)
        libcurl \(CurlVersion.runtime)
        """
    }
}
