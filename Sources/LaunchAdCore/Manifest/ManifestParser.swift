import Foundation

/// A manifest that cannot be used at all (not JSON, no `ads` array).
public struct ManifestError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, one line, naming the field.
    public let message: String
    /// The field at fault, when one is (the `rejected` event names it).
    public let field: String?
    /// An error saying `message`, blaming `field` when given.
    public init(_ message: String, field: String? = nil) { self.message = message; self.field = field }
    /// The message.
    public var description: String { message }
}

/// An ad left out of the manifest, with the one-line reason.
public struct RejectedAd: Equatable, Sendable {
    /// The ad's `id`, or `ads[N]` when it has none (`report` and `metrics` for those top-level fields).
    public let id: String
    /// Why it was left out, one line.
    public let reason: String
    /// The field at fault, when one is.
    public let field: String?
    /// A rejection of `id` for `reason`.
    public init(id: String, reason: String, field: String? = nil) { self.id = id; self.reason = reason; self.field = field }
}

/// The result of parsing: the usable manifest and everything left out of it.
public struct ParsedManifest: Equatable, Sendable {
    /// The ads that passed, with the report target and metrics file when those were valid.
    public var manifest: Manifest
    /// Ads and top-level fields refused (or kept without tracking), in manifest order, each with its reason.
    public var rejected: [RejectedAd]
    /// `version` and `expires`: used only when the screen trusts keys (an unsigned fleet's
    /// manifest is read as before, whatever they hold).
    public var signed = SignedFields()
}

/// Turns manifest JSON into validated ads. A broken ad is rejected alone, with its reason; the
/// others stay usable. Relative URLs resolve against `base` (the manifest's URL; for a file,
/// its file URL, so they resolve against its folder).
public enum ManifestParser {
    /// The largest manifest read, and the seconds its parse may take.
    public static func budget(maxBytes: Int64, seconds: Double) -> ParseBudget {
        ParseBudget(maxBytes: Int(clamping: maxBytes), seconds: seconds, limitName: "--timeout")
    }

    /// Parses manifest `data` within `budget`; throws only when none of it is usable (not JSON,
    /// no `ads` array, over the budget's size or past its deadline).
    public static func parse(_ data: Data, base: URL, budget: ParseBudget) throws -> ParsedManifest {
        do { try budget.check(bytes: data.count, what: "the manifest") } catch { throw ManifestError(error.message) }
        let root: ManifestJSON
        do {
            root = try JSONDecoder().decode(ManifestJSON.self, from: data)
        } catch {
            throw ManifestError("manifest is not valid JSON")
        }
        guard case .object(let top) = root else { throw ManifestError("manifest must be a JSON object with an \"ads\" array") }
        guard case .array(let items)? = top["ads"] else { throw ManifestError("manifest has no \"ads\" array") }
        var ads: [AdEntry] = []
        var rejected: [RejectedAd] = []
        var seen = Set<String>()
        for (index, item) in items.enumerated() {
            do { try budget.checkTime(what: "the manifest") } catch { throw ManifestError(error.message) }
            var label = "ads[\(index)]"
            if case .object(let o) = item, case .string(let id)? = o["id"], !id.isEmpty { label = id }
            do {
                var ad = try parseAd(item, base: base)
                guard seen.insert(ad.id).inserted else { throw ManifestError("id \"\(ad.id)\" is used twice") }
                // Bad tracking refuses that field alone: the ad stays, without beacons, and says so.
                if case .object(let o) = item {
                    do { ad.tracking = try ManifestTracking.parse(o["tracking"]) } catch let e as ManifestError {
                        rejected.append(RejectedAd(id: ad.id, reason: "\(e.message); the ad is kept without tracking"))
                    }
                }
                ads.append(ad)
            } catch let e as ManifestError {
                rejected.append(RejectedAd(id: label, reason: e.message, field: e.field))
            }
        }
        var report: ReportTarget?
        do { report = try ReportTarget.parse(top["report"]) } catch let e as ManifestError {
            rejected.append(RejectedAd(id: "report", reason: "\(e.message); no play records are sent"))
        }
        var metrics: String?
        switch top["metrics"] {
        case nil, .null?: break
        // A file path chosen by a remote server would let it pick where this machine writes.
        case .string(let path)? where base.isFileURL && path.hasPrefix("/") && !path.contains("\0"): metrics = path
        case .string? where !base.isFileURL:
            rejected.append(
                RejectedAd(id: "metrics", reason: "only a local manifest may name the metrics file; none is written", field: "metrics"))
        default:
            rejected.append(RejectedAd(id: "metrics", reason: "metrics must be an absolute file path; none is written", field: "metrics"))
        }
        var signed = signedFields(top)
        // A problem of the signed fields: refused when signed, while an unsigned manifest is taken as before (its first key).
        if signed.problem == nil, let duplicate = JSONDuplicateKeys.first(in: Array(data)) { signed.problem = duplicate }
        return ParsedManifest(manifest: Manifest(ads: ads, report: report, metrics: metrics), rejected: rejected, signed: signed)
    }

    /// `version` (a whole number) and `expires` (a time, as `start` and `end` take it).
    static func signedFields(_ top: [String: ManifestJSON]) -> SignedFields {
        let f = Fields(top)
        var fields = SignedFields()
        do {
            fields.version = try f.int("version", in: 0...(1 << 53) - 1)
            fields.expires = try f.date("expires")
        } catch let e as ManifestError {
            fields.problem = e.message
        } catch {
            fields.problem = "\(error)"
        }
        return fields
    }

    static func parseAd(_ json: ManifestJSON, base: URL) throws -> AdEntry {
        guard case .object(let o) = json else { throw ManifestError("an ad must be a JSON object, not \(json.typeName)") }
        let f = Fields(o)
        let id = try f.string("id")
        guard id.count <= 200, !id.contains(where: { $0.isNewline }) else {
            throw ManifestError("\"id\" must be one line of at most 200 characters")
        }
        let kindName = try f.string("type")
        if kindName == "vast" { return try parseVASTAd(o, id: id, base: base) }
        guard let kind = AdKind(rawValue: kindName) else {
            throw ManifestError("\"type\" must be video, image or vast, not \"\(TerminalText.quoted(kindName))\"")
        }
        let start = try f.date("start"), end = try f.date("end")
        if let start, let end, end < start { throw ManifestError("\"end\" is before \"start\"") }
        let link = try f.optionalString("link")
        if let link, !Link.isAllowed(link) { throw ManifestError("\"link\" must be an http or https URL") }
        let layout = try f.optionalString("layout")
        if let layout, LayoutMode(rawValue: layout) == nil {
            throw ManifestError("\"layout\" must be one of \(LayoutMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard case .array(let rawVariants)? = o["variants"], !rawVariants.isEmpty else {
            throw ManifestError("\"variants\" must be a non-empty array")
        }
        let variants = try rawVariants.enumerated().map { i, v in try parseCreative(v, base: base, at: "variants[\(i)]") }
        let fallback = try o["fallback"].flatMap { $0 == .null ? nil : try parseCreative($0, base: base, at: "fallback") }
        var ad = AdEntry(
            id: id, kind: kind, start: start, end: end, show: try f.bool("show") ?? true,
            priority: try f.int("priority", in: -1_000_000...1_000_000) ?? 0, link: link,
            duration: try f.seconds("duration", min: 0.1), skipAfter: try f.seconds("skip_after", min: 0),
            layout: layout, variants: variants, fallback: fallback)
        ad.schedule = try ManifestSchedule.parse(o)
        ad.captions = try o["captions"].flatMap { $0 == .null ? nil : try parseCreative($0, base: base, at: "captions", sized: false) }
        return ad
    }

    /// `{"id": ..., "type": "vast", "vast": URL}` with the usual schedule fields: a video whose
    /// media file, tracking, skip offset and link come from the tag when the refresh resolves it.
    static func parseVASTAd(_ o: [String: ManifestJSON], id: String, base: URL) throws -> AdEntry {
        let f = Fields(o)
        let raw = try f.string("vast")
        guard let url = URL(string: raw, relativeTo: base)?.absoluteURL, ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else {
            throw ManifestError("\"vast\" must be an http or https URL, not \"\(TerminalText.quoted(raw))\"")
        }
        let start = try f.date("start"), end = try f.date("end")
        if let start, let end, end < start { throw ManifestError("\"end\" is before \"start\"") }
        var ad = AdEntry(
            id: id, kind: .video, start: start, end: end, show: try f.bool("show") ?? true,
            priority: try f.int("priority", in: -1_000_000...1_000_000) ?? 0, variants: [], vast: url.absoluteString)
        ad.schedule = try ManifestSchedule.parse(o)
        return ad
    }

    /// `sized: false` for a caption file, which has no width or height.
    static func parseCreative(_ json: ManifestJSON, base: URL, at path: String, sized: Bool = true) throws -> Creative {
        guard case .object(let o) = json else { throw ManifestError("\(path) must be a JSON object") }
        let f = Fields(o, prefix: path + ".")
        let raw = try f.string("url")
        guard let url = URL(string: raw, relativeTo: base)?.absoluteURL, let scheme = url.scheme?.lowercased() else {
            throw ManifestError("\(path).url is not a URL: \"\(TerminalText.quoted(raw))\"")
        }
        // A remote manifest may only name remote files; a local one may also name local files.
        let allowed = base.isFileURL ? ["http", "https", "file"] : ["http", "https"]
        guard allowed.contains(scheme), url.isFileURL || url.host?.isEmpty == false else {
            throw ManifestError("\(path).url must be \(allowed.joined(separator: " or ")), not \"\(TerminalText.quoted(raw))\"")
        }
        // A relative reference in a manifest file stays inside the manifest's folder (`../`
        // or `/etc/...` could name any file on the machine).
        if base.isFileURL, URL(string: raw)?.scheme == nil {
            // On the decoded path, as the file system will read it (`%2e%2e` is `..` there).
            let folder = lexicallyNormal(base.deletingLastPathComponent().path)
            guard lexicallyNormal(url.path).hasPrefix(folder == "/" ? "/" : folder + "/") else {
                throw ManifestError("\(path).url leaves the manifest's folder: \"\(TerminalText.quoted(raw))\"")
            }
        }
        let size = sized ? (try f.int("width", in: 1...16384), try f.int("height", in: 1...16384)) : (0, 0)
        guard let width = size.0, let height = size.1 else {
            throw ManifestError("\(path) needs \"width\" and \"height\"")
        }
        guard let bytes = try f.int("bytes", in: 1...Int(Int32.max) * 8) else { throw ManifestError("\(path) needs \"bytes\"") }
        if !sized, bytes > CaptionFormat.maxBytes {
            throw ManifestError("\(path) is \(bytes) bytes, over the \(CaptionFormat.maxBytes)-byte caption limit")
        }
        let sha = try f.string("sha256").lowercased()
        guard sha.count == 64, sha.allSatisfy({ $0.isHexDigit }) else {
            throw ManifestError("\(path).sha256 must be 64 hex digits")
        }
        return Creative(url: url, width: width, height: height, bytes: Int64(bytes), sha256: sha)
    }

    /// `a/./b/../c` as `a/c`, without touching the file system.
    static func lexicallyNormal(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Typed field access with messages that name the field.
    struct Fields {
        let o: [String: ManifestJSON]
        var prefix = ""
        init(_ o: [String: ManifestJSON], prefix: String = "") { self.o = o; self.prefix = prefix }

        func string(_ key: String) throws -> String {
            guard let v = try optionalString(key) else { throw ManifestError("\(prefix)\(key) is missing", field: prefix + key) }
            guard !v.isEmpty else { throw ManifestError("\(prefix)\(key) is empty", field: prefix + key) }
            return v
        }
        func optionalString(_ key: String) throws -> String? {
            switch o[key] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            case let v?: throw ManifestError("\(prefix)\(key) must be a string, not \(v.typeName)", field: prefix + key)
            }
        }
        func bool(_ key: String) throws -> Bool? {
            switch o[key] {
            case nil, .null?: return nil
            case .bool(let b)?: return b
            case let v?: throw ManifestError("\(prefix)\(key) must be true or false, not \(v.typeName)", field: prefix + key)
            }
        }
        func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
            switch o[key] {
            case nil, .null?: return nil
            case .number(let d)? where d == d.rounded() && Checked.int(d).map(range.contains) == true:
                return Checked.int(d)
            default:
                throw ManifestError(
                    "\(prefix)\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)", field: prefix + key)
            }
        }
        func seconds(_ key: String, min: Double) throws -> Double? {
            switch o[key] {
            case nil, .null?: return nil
            case .number(let d)? where d.isFinite && d >= min && d <= 3600: return d
            default:
                throw ManifestError(
                    "\(prefix)\(key) must be a number of seconds from \(NumberText.plain(min)) to 3600", field: prefix + key)
            }
        }
        func date(_ key: String) throws -> Date? {
            guard let v = o[key], v != .null else { return nil }
            guard let d = ManifestDate.parse(v) else {
                throw ManifestError("\(prefix)\(key) must be an RFC 3339 time or epoch seconds", field: prefix + key)
            }
            return d
        }
    }
}
