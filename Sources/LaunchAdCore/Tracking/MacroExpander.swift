import Foundation

/// What a beacon's macros are filled with. Fixed once per beacon (its time, its cache-buster),
/// so a retry of the same beacon is byte-identical and a server can drop the duplicate.
public struct MacroContext: Sendable {
    /// `[TIMESTAMP]`: when the beacon's event happened.
    public var timestamp: Date
    /// Eight random digits.
    public var cacheBusting: String
    /// `[ERRORCODE]`: the VAST error code, on Error URIs.
    public var errorCode: Int?
    /// Shown time of the ad when the beacon fires.
    public var adPlayheadMs: Int?
    /// `[ASSETURI]`: the media file played.
    public var assetURI: String?
    /// `[PLAYERSIZE]`: the window's size in pixels, as `width,height`.
    public var playerSize: Size?
    /// Part of `[PLAYERSTATE]`: the sound is off.
    public var muted = false
    /// Part of `[PLAYERSTATE]` and `[INVENTORYSTATE]`: the ad plays fullscreen.
    public var fullscreen = false
    /// Part of `[INVENTORYSTATE]`: the ad has a skip button.
    public var skippable = false
    /// `[DEVICEUA]` and `[CLIENTUA]`: the player's User-Agent.
    public var deviceUA: String
    /// `[PODSEQUENCE]`: the ad's `sequence` in its pod, if it has one.
    public var podSequence: Int?
    /// `[UNIVERSALADID]`: the creative's UniversalAdId.
    public var universalAdId: String?
    /// `[ADCOUNT]`: how many ads of the response have played, this one included (1 for a single ad).
    public var adCount = 1
    /// `[TRANSACTIONID]`: one id shared by every beacon of the run.
    public var transactionID: String?
    /// `[REASON]`: why a verification did not run (2: not supported).
    public var reason: Int?
    /// Macros left as written, to be filled later (`[ADPLAYHEAD]` of a ClickThrough, at the click).
    public var deferred: Set<String> = []

    /// A context for beacons at `timestamp`; every optional macro value starts unknown.
    public init(timestamp: Date, cacheBusting: String, deviceUA: String) {
        self.timestamp = timestamp; self.cacheBusting = cacheBusting; self.deviceUA = deviceUA
    }
}

/// Replaces `[MACRO]`s in a tracking URI as `vast_4.x_macros.md` describes: every value
/// percent-encoded; a macro of the list the player cannot fill becomes -1 (unknown); text in
/// brackets that is not a listed macro is left alone.
public enum MacroExpander {
    /// The macros of the IAB list LaunchAd has no value for.
    static let unknownListed: Set<String> = [
        "STOREID", "STOREURL", "PLAYBACKMETHODS", "CONTENTCAT", "GPPSTRING", "GPPSECTIONID", "DSAREQUIRED", "DSAPARAMS",
        "DSAPUBRENDER", "CONTENTPLAYHEAD", "MEDIAPLAYHEAD", "BLOCKEDADCATEGORIES", "ADCATEGORIES", "PLACEMENTTYPE",
        "BREAKMAXDURATION", "BREAKMAXADS", "BREAKMINADLENGTH", "BREAKMAXADLENGTH", "IFA", "IFATYPE", "SERVERUA",
        "DEVICEIP", "LATLONG", "DOMAIN", "PAGEURL", "APPBUNDLE", "VASTVERSIONS", "APIFRAMEWORKS", "EXTENSIONS",
        "VERIFICATIONVENDORS", "OMIDPARTNER", "MEDIAMIME", "CONTENTID", "CONTENTURI", "ADSERVINGID", "CLICKPOS",
        "REASON", "REGULATIONS", "GDPRCONSENT", "ERRORCODE", "ADPLAYHEAD", "ASSETURI", "PLAYERSIZE", "PODSEQUENCE",
        "UNIVERSALADID", "TRANSACTIONID"
    ]

    /// The cache-busters servers wrote before VAST 4 named `[CACHEBUSTING]`, filled with its value.
    static let legacyCacheBusters = ["%%CACHEBUSTER%%"]

    /// `template` with its macros (`[NAME]`, `[random]`, `%%CACHEBUSTER%%`) replaced by their encoded values from `c`.
    public static func expand(_ template: String, _ c: MacroContext) -> String {
        var out = ""
        var rest = Substring(legacyCacheBusters.reduce(template) { $0.replacingOccurrences(of: $1, with: encode(c.cacheBusting)) })
        while let open = rest.firstIndex(of: "[") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            var name = after.prefix { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
            // `[random]`: the lower-case cache-buster of older tags.
            if name.isEmpty, after.hasPrefix("random]") { name = after.prefix(6) }
            let close = name.endIndex
            // Only `[NAME]` is a macro: a stray `[` stays as written and never hides the next one.
            guard close < after.endIndex, after[close] == "]", let value = value(of: String(name), c) else {
                out += "["
                rest = after
                continue
            }
            out += encode(value)
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }

    /// A macro's unencoded value; nil when `name` is not a macro (left as written).
    static func value(of name: String, _ c: MacroContext) -> String? {
        if c.deferred.contains(name) { return nil }
        if let v = filled(name, c) { return v }
        return unknownListed.contains(name) ? "-1" : nil
    }

    private static func filled(_ name: String, _ c: MacroContext) -> String? {
        switch name {
        case "TIMESTAMP": return timestamp(c.timestamp)
        case "CACHEBUSTING", "CACHEBUSTER", "RANDOM", "random": return c.cacheBusting
        case "REASON": return c.reason.map(String.init)
        case "ERRORCODE": return c.errorCode.map(String.init)
        case "ADPLAYHEAD": return c.adPlayheadMs.map(VASTClock.text(ms:))
        case "ASSETURI": return c.assetURI
        case "PLAYERSIZE": return c.playerSize.map { "\($0.width),\($0.height)" }
        case "PLAYERSTATE": return [c.muted ? "muted" : nil, c.fullscreen ? "fullscreen" : nil].compactMap { $0 }.joined(separator: ",")
        case "INVENTORYSTATE":
            return [c.skippable ? "skippable" : nil, "autoplayed", c.fullscreen ? "fullscreen" : nil].compactMap { $0 }.joined(
                separator: ",")
        case "LIMITADTRACKING": return "0"  // LaunchAd sends no advertising ID, so there is nothing to limit
        case "DEVICEUA", "CLIENTUA": return c.deviceUA
        case "PODSEQUENCE": return c.podSequence.map(String.init)
        case "UNIVERSALADID": return c.universalAdId
        case "ADCOUNT": return String(c.adCount)
        case "TRANSACTIONID": return c.transactionID
        case "BREAKPOSITION": return "4"  // standalone: a launch ad plays in no content
        case "ADTYPE": return "video"
        case "SERVERSIDE": return "0"
        case "CLICKTYPE": return "1"
        case "PLAYERCAPABILITIES": return "skip,mute,autoplay,fullscreen"
        default: return nil
        }
    }

    /// `2016-01-17T08:15:07.127Z`: ISO 8601 in UTC, with milliseconds. A time outside the years
    /// 1 to 9999 is written as the nearest end of that range (a manifest's time once trapped here).
    public static func timestamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let bounded = seconds.isNaN ? 0 : min(max(seconds, ManifestDate.epochSeconds.lowerBound), ManifestDate.epochSeconds.upperBound)
        let ms = Checked.int64((bounded * 1000).rounded(.down)) ?? 0
        let days = Int(floorDiv(ms, 86_400_000)), inDay = Int(ms - Int64(days) * 86_400_000)
        let (y, m, d) = civil(days)
        return "\(VASTClock.pad(y, 4))-\(VASTClock.pad(m, 2))-\(VASTClock.pad(d, 2))T" + VASTClock.text(ms: inDay) + "Z"
    }

    /// Percent-encodes all but RFC 3986's unreserved characters.
    public static func encode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func civil(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
