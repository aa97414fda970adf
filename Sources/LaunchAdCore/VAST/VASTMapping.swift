/// Which ads of a response play: the pod (ads with `sequence`, in sequence order), one after
/// another; the standalone ads (the buffet), in document order, as the fallbacks when an ad
/// fails — or, with no pod, the first of them plays and the rest are its fallbacks.
public struct VASTAdPlan: Equatable, Sendable {
    /// The ads with a `sequence`, in sequence order (document order for equal ones).
    public var pod: [VASTAd]
    /// The ads without a `sequence`, in document order.
    public var buffet: [VASTAd]

    /// The plan for `doc`'s ads.
    public init(_ doc: VASTDocument) {
        pod = doc.ads.enumerated().filter { $0.element.sequence != nil }
            .sorted { ($0.element.sequence!, $0.offset) < ($1.element.sequence!, $1.offset) }.map(\.element)
        buffet = doc.ads.filter { $0.sequence == nil }
    }

    /// True when the response holds no ad.
    public var isEmpty: Bool { pod.isEmpty && buffet.isEmpty }
}

/// A resolved VAST ad as player options: the chosen media file, ClickThrough as the link (http(s)
/// only), `skipoffset` as the time the skip button starts to work (no skipoffset: not skippable
/// unless `--skip-after` was given), progress offsets as progress marks.
public enum VASTMapping {
    /// The window the media file is chosen for: `--size`, `--device`, else 1920x1080.
    public static func window(for o: PlayOptions) -> Size {
        o.size ?? o.device?.screen ?? Size(width: 1920, height: 1080)
    }

    /// `context`: the ad's macro values, to fill the ClickThrough's macros as a tracking URI's
    /// (`[ADPLAYHEAD]` is left for the click itself to fill).
    public static func playOptions(_ base: PlayOptions, ad: ResolvedAd, media: VASTMediaFile, context: MacroContext? = nil) -> PlayOptions {
        var o = base
        o.file = media.url
        o.fallback = nil
        if let click = ad.linear.clickThrough, Link.isAllowed(click) {
            if var c = context {
                c.deferred = ["ADPLAYHEAD"]
                c.assetURI = media.url
                o.link = MacroExpander.expand(click, c)
                o.linkPlayhead = click.contains("[ADPLAYHEAD]")
            } else {
                o.link = click
            }
        }
        let durationMs = ad.linear.duration.flatMap(Checked.milliseconds)
        if let offset = ad.linear.skipOffset, let ms = offset.milliseconds(of: durationMs) {
            o.skipAfter = Double(ms) / 1000
        } else if !base.vast.skipAfterGiven {
            o.showSkip = false
        }
        var marks: [VASTOffset] = []
        for t in ad.linear.tracking where t.event == "progress" {
            if let off = t.offset, !marks.contains(off) { marks.append(off) }
        }
        o.progressOffsets = marks
        return o
    }
}
