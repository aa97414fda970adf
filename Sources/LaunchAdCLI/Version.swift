import LaunchAdDelivery
import LaunchAdMedia
import LaunchAdPlayer

extension Command {
    /// The release: the only place it is written. scripts/package.sh reads it from this line, and
    /// checks that debian/changelog and CHANGELOG.md start with it.
    public static let versionString = "0.1.0"
}

/// What `launchad --version` prints: the release and the libraries this process runs against
/// (asked of each at run time, not the headers it was built with), for bug reports.
enum VersionText {
    static var full: String {
        """
        launchad \(Command.versionString)
        FFmpeg \(FFmpegVersion.runtime)
        SDL \(SDLVersion.runtime)
        libcurl \(CurlVersion.runtime)
        """
    }
}
