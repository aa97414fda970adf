import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// Everything `launchad prefetch` can be told; its cache and network part is shared with `launch`.
public struct PrefetchOptions: Equatable, Sendable {
    public var manifest = ""
    public var cacheDir: String?
    public var cacheLimit: Int64 = 200_000_000
    public var allowHTTP = false
    public var eventsPath: String?
    /// `--metrics FILE`: the Prometheus textfile, updated after the refresh.
    public var metricsPath: String?
    /// The screen variants are chosen for (prefetch only; launch uses play's --size/--device).
    public var size: Size?
    public var device: DevicePreset?
    /// As launch's --rotate, so a cron prefetch fetches the variant launch will choose.
    public var rotation: ScreenRotation = .none
    public var connectTimeout: Double = 5
    public var timeout: Double = 60
    public var retries = 2
    public var maxCreativeBytes: Int64 = 100_000_000
    /// nil: a progress bar when stderr is a terminal.
    public var progress: Bool?
    /// The outbox this run sends from (what earlier runs left) and, for launch, queues to.
    public var delivery = DeliveryOptions()
    /// `--trust-key KEY|FILE`, each as given (read by the run, not the parser): with one, only
    /// manifests signed with a key named here are taken.
    public var trustKeys: [String] = []

    public init() {}

    /// The screen when none is given: a landscape full-HD kiosk display.
    public static let defaultScreen = Size(width: 1920, height: 1080)

    public static let help = """
        usage: launchad prefetch --manifest URL|FILE [options]
        Refreshes the ad cache from the manifest (for cron or a systemd timer), then exits.
        \(sharedHelp)
          --size WxH             the screen variants are chosen for (default \(defaultScreen.width)x\(defaultScreen.height))
          --device NAME          or a device's screen: \(DevicePreset.allCases.map(\.rawValue).joined(separator: ", "))
          --rotate 0|90|180|270  the screen is turned, as for launch: variants are chosen for the turned shape
          --events FILE          write JSON-lines events to FILE instead of stdout
          --metrics FILE         update the Prometheus textfile launch writes (cache, last refresh, outbox)
          --progress, --no-progress   progress bar on stderr (default: when stderr is a terminal)
        Exit codes: 0 everything wanted is cached, 1 the manifest or a creative could not be had
        (what was cached before is kept), 2 usage.
        """

    public static let sharedHelp = """
        \(manifestHelp)
          --cache-limit BYTES    most bytes kept, e.g. 200MB, 50M, 1GiB, 1000000 (default 200MB)
          --max-creative-bytes BYTES   the largest creative accepted (default 100MB)
          --trust-key KEY|FILE   take only manifests signed with this minisign public key (its text as
                                 minisign prints it, or its .pub file), beside them as URL.minisig, not
                                 older than the last taken and not past their "expires"; repeat to
                                 trust two keys during a rotation
        \(DeliveryOptions.help)
        """

    /// The options that read the manifest and the cache (all `schedule` takes of them).
    public static let manifestHelp = """
          --manifest URL|FILE    the ad manifest: an https URL (http for loopback hosts) or a file
          --cache DIR            cache folder (default $XDG_CACHE_HOME/launchad, else ~/.cache/launchad)
          --allow-http           allow plain http from any host
          --connect-timeout S    give up on a silent connection after S seconds (default 5)
          --timeout S            give up on one download after S seconds (default 60)
          --retries N            retries after a timeout, dropped connection or 5xx (default 2)
        """

    public static func parse(_ args: [String]) throws -> PrefetchOptions? {
        var r = ArgumentReader(args)
        var o = PrefetchOptions()
        while let opt = r.nextOption() {
            if try o.applyShared(opt, &r) { continue }
            switch opt {
            case "--help": return nil
            case "--events": o.eventsPath = try r.value(for: opt)
            case "--metrics": o.metricsPath = try r.value(for: opt)
            case "--size":
                let raw = try r.value(for: opt)
                guard let s = Size(parsing: raw) else { throw UsageError("--size takes WxH, not '\(raw)'") }
                o.size = s
            case "--device": o.device = try r.choice(for: opt, DevicePreset.self)
            case "--rotate": o.rotation = try r.rotation(for: opt)
            case "--progress": try r.flag(opt); o.progress = true
            case "--no-progress": try r.flag(opt); o.progress = false
            default: throw UsageError("unknown option \(opt) (see launchad prefetch --help)")
            }
        }
        guard r.positionals.isEmpty else { throw UsageError("prefetch takes no FILE, got '\(r.positionals[0])' (use --manifest)") }
        try o.check()
        if o.size != nil && o.device != nil { throw UsageError("--size and --device cannot be used together") }
        return o
    }

    /// Applies a cache or network option; false when `opt` is not one.
    public mutating func applyShared(_ opt: String, _ r: inout ArgumentReader) throws -> Bool {
        if try delivery.apply(opt, &r) { return true }
        if try applyManifest(opt, &r) { return true }
        switch opt {
        case "--cache-limit": cacheLimit = try PrefetchOptions.bytes(for: opt, &r)
        case "--max-creative-bytes": maxCreativeBytes = try PrefetchOptions.bytes(for: opt, &r)
        case "--trust-key":
            let key = try r.value(for: opt)
            guard !key.isEmpty else { throw UsageError("--trust-key needs a public key or a .pub file") }
            trustKeys.append(key)
        default: return false
        }
        return true
    }

    /// The options of ``manifestHelp``; false when `opt` is none of them.
    public mutating func applyManifest(_ opt: String, _ r: inout ArgumentReader) throws -> Bool {
        switch opt {
        case "--manifest": manifest = try r.value(for: opt)
        case "--cache": cacheDir = try r.value(for: opt)
        case "--allow-http": try r.flag(opt); allowHTTP = true; delivery.allowHTTP = true
        case "--connect-timeout": connectTimeout = try r.double(for: opt, min: 0.1, max: 600)
        case "--timeout": timeout = try r.double(for: opt, min: 0.1, max: 3600)
        case "--retries": retries = try r.int(for: opt, max: 10)
        default: return false
        }
        return true
    }

    public func check() throws {
        guard !manifest.isEmpty else { throw UsageError("--manifest URL|FILE is required") }
        _ = try manifestURL()
        if let cacheDir, cacheDir.isEmpty { throw UsageError("--cache needs a folder") }
    }

    /// The manifest as a URL: http(s) as given, anything else a file path.
    public func manifestURL(cwd: String = FileManager.default.currentDirectoryPath) throws -> URL {
        if let sep = manifest.range(of: "://") {
            let scheme = manifest[..<sep.lowerBound].lowercased()
            guard ["http", "https", "file"].contains(scheme), let url = URL(string: manifest), url.scheme != nil,
                scheme == "file" || url.host?.isEmpty == false
            else {
                throw UsageError("--manifest takes an http(s) URL or a file, not '\(manifest)'")
            }
            if scheme == "http", !allowHTTP, !URLPolicy.isLoopback(url.host ?? "") {
                throw UsageError("--manifest over plain http needs --allow-http (or https, or a loopback host)")
            }
            return url
        }
        return URL(fileURLWithPath: manifest, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL
    }

    /// --cache, else $XDG_CACHE_HOME/launchad, else ~/.cache/launchad.
    public func cacheDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let cacheDir { return URL(fileURLWithPath: cacheDir) }
        return DeliveryOptions.xdgFolder("XDG_CACHE_HOME", else: ".cache", environment: environment)
    }

    public var screen: Size { rotation.scene(size ?? device?.screen ?? PrefetchOptions.defaultScreen) }

    static func bytes(for option: String, _ r: inout ArgumentReader) throws -> Int64 {
        let raw = try r.value(for: option)
        guard let n = parseBytes(raw), n > 0 else {
            throw UsageError("\(option) takes a size like 200MB, 50M, 1GiB or 1000000, not '\(raw)'")
        }
        return n
    }

    /// "200MB", "50M", "1.5G", "64KiB", "1000000": decimal units (kB/MB/GB), binary with "i".
    public static func parseBytes(_ raw: String) -> Int64? {
        let s = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let number = s.prefix { $0.isNumber || $0 == "." }
        guard !number.isEmpty, let value = Double(number), value.isFinite else { return nil }
        let unit = s.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        let scales: [String: Double] = [
            "": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9,
            "kib": 1024, "ki": 1024, "mib": 1_048_576, "mi": 1_048_576,
            "gib": 1_073_741_824, "gi": 1_073_741_824
        ]
        guard let scale = scales[unit] else { return nil }
        let bytes = value * scale
        guard bytes >= 1, bytes < 1e15 else { return nil }
        return Int64(bytes.rounded())
    }

    /// The refresh's settings; the trusted keys' files are read here.
    public func prefetchConfig(screen: Size) throws -> PrefetchConfig {
        PrefetchConfig(
            manifestURL: try manifestURL(), screen: screen, cacheLimit: cacheLimit, maxCreativeBytes: maxCreativeBytes,
            trust: TrustedKeyFiles.read(trustKeys))
    }
}
