/// `validate --vast`: the ad's `<ClosedCaptionFiles>`, each fetched and parsed. A file that
/// cannot be read fails; cues running past the ad's length (beyond half a second) warn; a type
/// LaunchAd does not read warns. No caption files passes with "none".
public enum VASTCaptionCheck {
    /// The rule's name in reports.
    public static let rule = "closed_caption_files"

    /// `read`: each file's parse, nil for one not fetched (its type or URL is not one LaunchAd
    /// reads); `leftOut`: readable files not fetched (over the tag's count or byte budget).
    public static func evaluate(
        _ files: [(file: VASTCaptionFile, read: Result<CaptionParse, CaptionError>?)], adSeconds: Double?, leftOut: Int
    ) -> RuleResult {
        let limit = "WebVTT or TTML at http(s), readable, cues within the ad's length"
        guard !files.isEmpty || leftOut > 0 else {
            return RuleResult(rule: rule, status: .pass, measured: .value(.string("none")), limit: limit)
        }
        var status = RuleResult.Status.pass
        var parts: [String] = []
        for (file, read) in files {
            let name = "\(file.language ?? "und") \(file.type.isEmpty ? "no type" : file.type)"
            switch read {
            case nil:
                status = max(status, .warn)
                parts.append("\(name): not read (only WebVTT or TTML at http(s) URLs)")
            case .failure(let e)?:
                status = .fail
                parts.append("\(name): \(e.message)")
            case .success(let p)?:
                var text = "\(name): \(p.track.cues.count) cues"
                if let last = p.track.lastEndMs {
                    text += ", last ends at \(NumberText.plain(Double(last) / 1000)) s"
                    if let ad = adSeconds, Double(last) / 1000 > ad + 0.5 {
                        status = max(status, .warn); text += " (after the ad's \(NumberText.plain(ad)) s)"
                    }
                }
                if p.skipped > 0 { status = max(status, .warn); text += ", \(p.skipped) skipped (\(p.firstProblem ?? "malformed"))" }
                parts.append(text)
            }
        }
        if leftOut > 0 {
            status = max(status, .warn)
            parts.append("\(leftOut) more not fetched (at most \(VASTRules.maxCheckedMedia) per tag, within its download budget)")
        }
        return RuleResult(rule: rule, status: status, measured: .value(.string(parts.joined(separator: "; "))), limit: limit)
    }
}
