import Foundation

/// The ad to show now and the files to show it with.
public struct AdChoice: Equatable, Sendable {
    public var ad: AdEntry
    public var variant: Creative
    public var fallback: Creative?
}

/// Chooses the ad: the highest priority among those with `show` true, inside their time window
/// at `now`, whose creative is available (for a launch: fully cached and verified). Ties keep
/// manifest order. The variant is the best fit for the screen among the available ones.
public enum AdSelector {
    public static func choose(from ads: [AdEntry], now: Date, screen: Size,
                              isAvailable: (Creative) -> Bool) -> AdChoice? {
        for ad in byPriority(ads.filter { $0.show && $0.isActive(at: now) }) {
            let ready = ad.variants.filter(isAvailable)
            guard let variant = VariantChooser.best(ready, for: screen) else { continue }
            let fallback = ad.fallback.flatMap { isAvailable($0) ? $0 : nil }
            return AdChoice(ad: ad, variant: variant, fallback: fallback)
        }
        return nil
    }

    /// The ads worth caching, most important first: not hidden, not past their end (an ad that
    /// starts later is cached ahead of its window).
    public static func worthCaching(_ ads: [AdEntry], now: Date) -> [AdEntry] {
        byPriority(ads.filter { $0.show && !$0.isExpired(at: now) })
    }

    /// Highest priority first; equal priorities keep their manifest order.
    static func byPriority(_ ads: [AdEntry]) -> [AdEntry] {
        ads.enumerated()
            .sorted { $0.element.priority != $1.element.priority ? $0.element.priority > $1.element.priority : $0.offset < $1.offset }
            .map(\.element)
    }
}
