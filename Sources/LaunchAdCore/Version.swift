/// The release, in one place: `launchad --version`, play records and every request's User-Agent.
public enum LaunchAdVersion {
    public static let string = "0.1.0"
    /// The one User-Agent of every request launchad makes: tags, manifests, creatives, beacons, records.
    public static let userAgent = "launchad/\(string)"
}
