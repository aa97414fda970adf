/// The release, written only here: `launchad --version`, play records, man pages and every
/// request's User-Agent read it. scripts/package.sh reads it from this line, and checks that
/// debian/changelog and CHANGELOG.md start with it.
public enum LaunchAdVersion {
    /// The version number (`MAJOR.MINOR.PATCH`).
    public static let versionString = "0.1.0"
    /// The one User-Agent of every request launchad makes: tags, manifests, creatives, beacons, records.
    public static let userAgent = "launchad/\(versionString)"
}
