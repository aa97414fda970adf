import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine
import LaunchAdMedia

/// `validate --vast URL|FILE`: resolves the tag's first ad, holds the tag to the VAST rules, then
/// downloads each progressive media file this player can play (at most `VASTRules.maxCheckedMedia`,
/// each under the size cap, all under the byte budget; each deleted once analysed) and runs the
/// creative rules on it: one report section for the tag (with its wrapper chain and media-file
/// ladder for the HTML report), one per media file; the files left out are listed as not checked.
enum ValidateVAST {
    static let maxMediaBytes: Int64 = 100_000_000
    /// All the media files of one tag together.
    static let maxTotalBytes: Int64 = 300_000_000

    static func reports(_ o: ValidateOptions, tag: String, spec: Spec, progress: VASTProgress? = nil) -> [CreativeReport] {
        var facts = resolvedFacts(o, tag: tag, progress: progress)
        var media: [CreativeReport] = []
        let ready = facts.resolved.map { MediaFileChooser.readyRenditions($0.linear.mediaFiles, capabilities: facts.capabilities) } ?? []
        let files = Array(ready.prefix(VASTRules.maxCheckedMedia))
        facts.notChecked = ready.dropFirst(VASTRules.maxCheckedMedia).map { ($0.url, "over \(VASTRules.maxCheckedMedia) per tag") }
        progress?.resolved(mediaFiles: files.count)
        var budget = maxTotalBytes
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-validate-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = HTTPClient(
            connectTimeout: o.vastTimeout, totalTimeout: 120, allowHTTP: o.allowHTTP, allowPrivateNetwork: o.allowPrivateNetwork)
        for (n, file) in files.enumerated() {
            // Named by position, never by anything the tag says.
            let local = folder.appendingPathComponent("media-\(n + 1)")
            // Analysed, then gone: the disk holds one media file at a time.
            defer { try? FileManager.default.removeItem(at: local) }
            guard budget > 0 else {
                facts.notChecked.append((file.url, "the tag's \(maxTotalBytes / 1_000_000) MB download budget was used up"))
                continue
            }
            do {
                guard let url = URL(string: file.url) else { throw FetchError("not a URL", retryable: false) }
                let request = FetchRequest(
                    url: url, reach: facts.resolved?.reach ?? .publicOnly, maxBytes: min(maxMediaBytes, budget), destination: local)
                let r = try client.fetch(request, progress: { progress?.downloading(n, got: $0) })
                budget -= r.bytes
                guard (200..<300).contains(r.status) else { throw FetchError("HTTP \(r.status)", retryable: false) }
                var report = ValidateCommand.validate(local.path, spec, pictures: o.format == .html ? PictureRequest() : nil) {
                    progress?.analysing(n, $0)
                }
                report.file = file.url
                if let d = report.facts?.probe.durationSeconds { facts.mediaDurations[file.url] = d }
                media.append(report)
            } catch {
                media.append(.unreadable(file: file.url, spec: spec.name, reason: "cannot download: \(error)"))
            }
        }
        // The tag's section comes first in the report, its media files right after, in order.
        var sections: [String: (anchor: String, status: RuleResult.Status)] = [:]
        for (n, report) in media.enumerated() where sections[report.file] == nil {
            sections[report.file] = (ValidationReport.anchor(n + 1), report.status)
        }
        let read = captions(
            facts.resolved?.linear.captionFiles ?? [], reach: facts.resolved?.reach ?? .publicOnly, budget: &budget, o)
        let captions = VASTCaptionCheck.evaluate(read.files, adSeconds: facts.resolved?.linear.duration, leftOut: read.leftOut)
        return [
            CreativeReport(
                file: tag, spec: "vast", results: VASTRules.evaluate(facts) + [captions], facts: nil,
                vast: VASTReportFacts(facts, sections: sections))
        ] + media
    }

    /// The tag read and its first ad followed through its wrappers, as far as they go.
    private static func resolvedFacts(_ o: ValidateOptions, tag: String, progress: VASTProgress?) -> VASTTagFacts {
        progress?.reading()
        let client = HTTPClient(
            connectTimeout: o.vastTimeout, totalTimeout: o.vastTimeout, allowHTTP: o.allowHTTP, allowPrivateNetwork: o.allowPrivateNetwork)
        let resolver = VASTResolver(client: client, maxWrappers: o.maxWrappers)
        var facts = VASTTagFacts(source: tag, maxWrappers: o.maxWrappers, capabilities: .local(), window: Size(width: 1920, height: 1080))
        do {
            let (doc, docReach) = try resolver.loadReached(tag, reach: .any)
            facts.document = doc
            let plan = VASTAdPlan(doc)
            if let first = plan.pod.first ?? plan.buffet.first {
                switch resolver.resolve(first, tagURL: tag.contains("://") ? tag : nil, rootErrors: doc.errors, reach: docReach) {
                case .success(let ad): facts.resolved = ad
                case .failure(let f): (facts.chainError, facts.followed) = (f.error, f.followed)
                }
            } else {
                facts.chainError = VASTError(VASTError.noAd, "the response holds no <Ad>")
            }
        } catch {
            facts.loadError = (error as? VASTFailure)?.error ?? VASTError(VASTError.undefined, "\(error)")
        }
        return facts
    }
}

/// `validate --vast`'s progress bar: the tag read and resolved (the first tenth), then each
/// media file's download and analysis (half of its share each), labelled with the step.
final class VASTProgress: Sendable {
    private let bar: ProgressBar
    private let files = Locked(0)

    init(_ bar: ProgressBar) { self.bar = bar }

    func reading() { bar.update(0, label: "reading the tag") }

    func resolved(mediaFiles: Int) {
        files.withLock { $0 = mediaFiles }
        bar.update(100, label: mediaFiles == 0 ? "tag read" : "\(mediaFiles) media file\(mediaFiles == 1 ? "" : "s")")
    }

    /// `got` bytes of media file `n` (0-based) so far: VAST says no size, so the label counts them.
    func downloading(_ n: Int, got: Int64) { step(n, 0, String(format: "download %.1f MB", Double(got) / 1e6)) }

    func analysing(_ n: Int, _ fraction: Double) { step(n, 0.5 + min(1, fraction) / 2, "analyse") }

    private func step(_ n: Int, _ within: Double, _ what: String) {
        let count = max(1, files.withLock { $0 })
        let done = 0.1 + 0.9 * (Double(n) + within) / Double(count)
        // The analysis's fraction comes from a file's timestamps: NaN or an infinity stays on the bar.
        let permille = Checked.int((done * 1000).rounded(.down), clampedTo: 0...1000)
        bar.update(Int64(permille), label: "\(n + 1)/\(count) \(what)")
    }
}
