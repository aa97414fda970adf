import LaunchAdCore
import LaunchAdEngine

/// What `launchad validate` is told: the files, the profile or spec file, the report format.
public struct ValidateOptions: Equatable, Sendable {
    public enum Loudness: String, CaseIterable, Sendable {
        /// ATSC A/85 style: the profile's own target (-24 LKFS for iab-ctv).
        case atsc
        /// EBU R128: -23 LUFS +/-1.
        case ebu
    }

    public var files: [String] = []
    public var profile = "launch-ad"
    /// `--profile` was given: no hint about the default profile's judgement.
    public var profileGiven = false
    public var specPath: String?
    public var format: ReportFormat = .text
    public var loudness: Loudness = .atsc
    public var output: String?
    /// `--progress`/`--no-progress`; nil: a bar only when stderr is a terminal.
    public var progress: Bool?
    /// `--jobs N`: creatives checked at once (nil: one per core).
    public var jobs: Int?
    /// `--vast URL|FILE`: a VAST tag to check (its chain, then its media files).
    public var vast: String?
    public var vastTimeout: Double = 5
    public var maxWrappers = 5
    public var allowHTTP = false
    /// `--allow-private-network`: as for play.
    public var allowPrivateNetwork = false

    public init(files: [String] = []) { self.files = files }

    public static let help = """
        usage: launchad validate FILE... [--profile NAME | --spec FILE.json] [--format text|json|junit|html]
               launchad validate --vast URL|FILE [--profile NAME] [--format ...]
        Decodes every packet of each creative once, measures loudness, black, silence, frozen and flashing
        pictures, interlace, bars, range, phase, DC offset and clipping in one filter graph, and checks it
        against a profile: each rule passes, warns, fails or is skipped (with the reason) with the measured
        value and the limit.
          --profile NAME         \(Spec.profileNames.joined(separator: ", ")) (default launch-ad)
          --spec FILE.json       your own rules: {"extends": "iab-ctv", "rules": {"duration": {"max": 20}}}
          --format FORMAT        text (default), json, junit (JUnit XML for CI) or html (one self-contained page
                                 with pictures, loudness plot and timeline; best with --output report.html)
          --loudness atsc|ebu    atsc keeps the profile's target (-24 LKFS for iab-ctv); ebu checks -23 LUFS +/-1
          --output FILE          write the report to FILE instead of stdout (whole or not at all)
          --jobs N               check N creatives at once (default: the number of cores); the report keeps
                                 the files' order
          --progress, --no-progress   progress bar on stderr (default: when stderr is a terminal); with --vast,
                                 the tag, then each media file's download and analysis
          --vast URL|FILE        check a VAST tag: XML, version, required elements, https, wrappers,
                                 playable media, renditions, UniversalAdId, durations; then each media file
          --vast-timeout S, --max-wrappers N, --allow-http, --allow-private-network   as for play --vast
        Exit codes: 0 nothing fails (warnings allowed), 1 a rule fails or a file cannot be read, 2 usage.
        """

    public static func parse(_ args: [String]) throws -> ValidateOptions? {
        var r = ArgumentReader(args)
        var o = ValidateOptions()
        while let opt = r.nextOption() {
            switch opt {
            case "--help": return nil
            case "--profile":
                let name = try r.value(for: opt)
                guard Spec.profileNames.contains(name) else {
                    throw UsageError("--profile takes one of \(Spec.profileNames.joined(separator: ", ")), not '\(name)'")
                }
                o.profile = name
                o.profileGiven = true
            case "--spec": o.specPath = try r.value(for: opt)
            case "--format": o.format = try r.choice(for: opt, ReportFormat.self)
            case "--loudness": o.loudness = try r.choice(for: opt, Loudness.self)
            case "--output": o.output = try r.value(for: opt)
            case "--no-progress": try r.flag(opt); o.progress = false
            case "--progress": try r.flag(opt); o.progress = true
            case "--jobs": o.jobs = try r.int(for: opt, min: 1, max: 64)
            case "--vast": o.vast = try r.value(for: opt)
            case "--vast-timeout": o.vastTimeout = try r.double(for: opt, min: 0.1, max: 600)
            case "--max-wrappers": o.maxWrappers = try r.int(for: opt, min: 0, max: 20)
            case "--allow-http": try r.flag(opt); o.allowHTTP = true
            case "--allow-private-network": try r.flag(opt); o.allowPrivateNetwork = true
            default: throw UsageError("unknown option \(opt) (see launchad validate --help)")
            }
        }
        if o.profileGiven && o.specPath != nil { throw UsageError("--profile and --spec cannot be used together") }
        guard !r.positionals.isEmpty || o.vast != nil else { throw UsageError("validate needs at least one FILE (or --vast URL|FILE)") }
        o.files = r.positionals
        return o
    }
}
