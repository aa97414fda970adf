/// What the HTML report shows for a VAST tag besides its rules: the wrapper chain (each document
/// in order, the InLine last) and the media-file ladder (each MediaFile, whether this player can
/// play it, which one `play` would choose, and a link to its own section when it was validated).
public struct VASTReportFacts: Equatable, Sendable {
    /// One document of the chain.
    public struct ChainLink: Equatable, Sendable {
        /// Its URI, or `inline file <path>` for a tag read from a file.
        public var uri: String
        /// `<AdSystem>` of the ad taken from the document; nil when none was.
        public var adSystem: String?
        /// The document's VAST version; nil when it was not read.
        public var version: String?
        /// True for the document holding the InLine ad.
        public var isInline: Bool
        /// Why this document gave no ad: it could not be read, or held none.
        public var problem: String?

        /// A chain link as given; `problem` defaults to none.
        public init(uri: String, adSystem: String?, version: String?, isInline: Bool, problem: String? = nil) {
            self.uri = uri; self.adSystem = adSystem; self.version = version; self.isInline = isInline; self.problem = problem
        }
    }

    /// What this player makes of one media file.
    public enum Verdict: Equatable, Sendable {
        /// The one `play` would choose for the window, and why.
        case chosen(String)
        case playable
        /// Never played here, and why.
        case skipped(String)
    }

    /// One MediaFile of the linear creative.
    public struct MediaRow: Equatable, Sendable {
        /// The media file as the tag lists it.
        public var file: VASTMediaFile
        /// Whether it is chosen, playable or skipped here.
        public var verdict: Verdict
        /// The id of this file's own section in the report, when it was downloaded and validated.
        public var anchor: String?
        /// That section's verdict.
        public var status: RuleResult.Status?

        /// A row as given; `anchor` and `status` default to none.
        public init(file: VASTMediaFile, verdict: Verdict, anchor: String? = nil, status: RuleResult.Status? = nil) {
            self.file = file; self.verdict = verdict; self.anchor = anchor; self.status = status
        }
    }

    /// The documents, first to last (the InLine's last when the chain resolved).
    public var chain: [ChainLink]
    /// Why the chain stopped before an InLine, when it did.
    public var chainError: String?
    /// The window size the media file is chosen for.
    public var window: Size
    /// The resolved ad's media files, in tag order; empty when the chain did not resolve.
    public var mediaFiles: [MediaRow]

    /// Report facts as given.
    public init(chain: [ChainLink], chainError: String? = nil, window: Size, mediaFiles: [MediaRow]) {
        self.chain = chain; self.chainError = chainError; self.window = window; self.mediaFiles = mediaFiles
    }

    /// From what `validate --vast` learned; `sections` gives, by media URL, the id and verdict of
    /// each media file's own section.
    public init(_ f: VASTTagFacts, sections: [String: (anchor: String, status: RuleResult.Status)] = [:]) {
        let first = f.source.contains("://") ? f.source : "inline file \(f.source)"
        window = f.window
        chainError = (f.loadError ?? f.chainError).map { "VAST error \($0.code): \($0.message)" }
        guard let ad = f.resolved else {
            let plan = f.document.map(VASTAdPlan.init)
            let firstAd = plan.flatMap { $0.pod.first ?? $0.buffet.first }
            chain =
                f.document.map {
                    [ChainLink(uri: first, adSystem: firstAd?.adSystem, version: $0.version, isInline: firstAd?.isWrapper == false)]
                } ?? []
            // A chain that stopped partway: every document it got to, the one it stopped at marked.
            if !chain.isEmpty {
                chain += f.followed.map { d in
                    ChainLink(
                        uri: d.uri, adSystem: d.adSystem, version: d.version, isInline: d.state == .inline,
                        problem: d.state == .notRead ? "not read" : d.state == .noAd ? "no ad in it" : nil)
                }
            }
            mediaFiles = []
            return
        }
        let uris = [first] + ad.tagURIs
        let versions = [f.document?.version] + ad.documentVersions.map(Optional.some)
        let systems = ad.wrapperSystems + [ad.adSystem]
        chain = uris.indices.map { i in
            ChainLink(
                uri: uris[i], adSystem: i < systems.count ? systems[i] : nil,
                version: i < versions.count ? versions[i] : nil, isInline: i == uris.count - 1)
        }
        let choice = try? MediaFileChooser.choose(ad.linear.mediaFiles, window: f.window, capabilities: f.capabilities).get()
        var chosenTaken = false
        mediaFiles = ad.linear.mediaFiles.map { m in
            let verdict: Verdict
            if let why = MediaFileChooser.refusal(m, capabilities: f.capabilities, maxBitrateKbps: nil) {
                let name = m.url.split(separator: "/").last.map(String.init) ?? m.url
                verdict = .skipped(why.hasPrefix(name + ": ") ? String(why.dropFirst(name.count + 2)) : why)
            } else if let choice, choice.file == m, !chosenTaken {
                chosenTaken = true
                verdict = .chosen(choice.reason)
            } else {
                verdict = .playable
            }
            let section = sections[m.url]
            return MediaRow(file: m, verdict: verdict, anchor: section?.anchor, status: section?.status)
        }
    }
}
