import Foundation

/// The ad to show now and the files to show it with.
public struct AdChoice: Equatable, Sendable {
    /// The chosen ad.
    public var ad: AdEntry
    /// The available creative that best fits the screen.
    public var variant: Creative
    /// The ad's fallback image, when it is available too.
    public var fallback: Creative?

    /// `ad` shown with `variant` (and `fallback`).
    public init(ad: AdEntry, variant: Creative, fallback: Creative?) { self.ad = ad; self.variant = variant; self.fallback = fallback }
}

/// Why an ad is not the one shown (for `launchad schedule`), in manifest order.
public struct AdVerdict: Equatable, Sendable {
    /// The ad's id.
    public var id: String
    /// nil for the winner.
    public var reason: String?
    /// The verdict for ad `id`.
    public init(id: String, reason: String?) { self.id = id; self.reason = reason }
}

/// Chooses the ad: among those with `show` true, inside their time window, their days and hours,
/// under their frequency caps (counted from `plays`, this screen's earlier plays of each ad id),
/// and whose creative is available (for a launch: fully cached and verified), the highest
/// priority; among equal priorities the ad furthest behind its share of voice (plays in the last
/// 24 hours divided by `weight`), ties in manifest order. The variant is the best fit for the
/// screen among the available ones.
public enum AdSelector {
    /// The ad to show at `now` on a `screen`-sized display, or nil when none may (see `rank` for why).
    public static func choose(
        from ads: [AdEntry], now: Date, screen: Size, plays: [String: [Date]] = [:],
        systemZone: TimeZone = .current, isAvailable: (Creative) -> Bool
    ) -> AdChoice? {
        rank(ads, now: now, screen: screen, plays: plays, systemZone: systemZone, isAvailable: isAvailable).winner
    }

    /// The winner and, for every ad in manifest order, why it is not the winner (nil for it).
    public static func rank(
        _ ads: [AdEntry], now: Date, screen: Size, plays: [String: [Date]] = [:],
        systemZone: TimeZone = .current, isAvailable: (Creative) -> Bool
    ) -> (winner: AdChoice?, verdicts: [AdVerdict]) {
        var reasons: [String?] = []
        var eligible: [(index: Int, choice: AdChoice)] = []
        for (i, ad) in ads.enumerated() {
            if let reason = refusal(ad, now: now, plays: plays[ad.id] ?? [], systemZone: systemZone) {
                reasons.append(reason)
                continue
            }
            guard let variant = VariantChooser.best(ad.variants.filter(isAvailable), for: screen) else {
                reasons.append(ad.variants.isEmpty ? "not resolved (VAST tag not fetched yet)" : "not cached")
                continue
            }
            reasons.append(nil)
            eligible.append((i, AdChoice(ad: ad, variant: variant, fallback: ad.fallback.flatMap { isAvailable($0) ? $0 : nil })))
        }
        guard let top = eligible.map(\.choice.ad.priority).max() else {
            return (nil, zip(ads, reasons).map { AdVerdict(id: $0.id, reason: $1) })
        }
        let share = { (ad: AdEntry) in Double(plays24(ad, plays, now)) / Double(ad.schedule?.weight ?? 1) }
        let equals = eligible.filter { $0.choice.ad.priority == top }
        // Stable: equal shares keep manifest order.
        let winner = equals.min { share($0.choice.ad) < share($1.choice.ad) }!
        let w = winner.choice.ad
        for (i, choice) in eligible where i != winner.index {
            let ad = choice.ad
            reasons[i] =
                ad.priority < top
                ? "lower priority (\(ad.priority) < \(top) of \(w.id))"
                : "share of voice: \(w.id)'s turn (weight \(ad.schedule?.weight ?? 1), \(AdSchedule.plays(plays24(ad, plays, now))) in 24 h)"
        }
        return (winner.choice, zip(ads, reasons).map { AdVerdict(id: $0.id, reason: $1) })
    }

    private static func plays24(_ ad: AdEntry, _ plays: [String: [Date]], _ now: Date) -> Int {
        (plays[ad.id] ?? []).filter { $0 <= now && now.timeIntervalSince($0) < 86400 }.count
    }

    /// Why `ad` may not show at `now` whatever is cached: hidden, outside its window, days or
    /// hours, or capped.
    static func refusal(_ ad: AdEntry, now: Date, plays: [Date], systemZone: TimeZone) -> String? {
        if !ad.show { return "hidden (show: false)" }
        if let start = ad.start, now < start { return "not started (starts \(PlayRecord.utc(start)))" }
        if ad.isExpired(at: now) { return "expired" }
        return ad.schedule?.refusal(at: now, plays: plays, systemZone: systemZone)
    }

    /// The ads worth caching, most important first: not hidden, not past their end (an ad that
    /// starts later, or is outside its hours now, is cached ahead of its time).
    public static func worthCaching(_ ads: [AdEntry], now: Date) -> [AdEntry] {
        byPriority(ads.filter { $0.show && !$0.isExpired(at: now) })
    }

    /// The ads in their window at `now`: shown, started and not past their end (days, hours and
    /// caps aside). What `launchad_cache_ads` counts: an ad cached ahead for 2100 is not ready.
    public static func inWindow(_ ads: [AdEntry], now: Date) -> [AdEntry] {
        ads.filter { $0.show && ($0.start.map { $0 <= now } ?? true) && !$0.isExpired(at: now) }
    }

    /// Highest priority first; equal priorities keep their manifest order.
    static func byPriority(_ ads: [AdEntry]) -> [AdEntry] {
        ads.enumerated()
            .sorted { $0.element.priority != $1.element.priority ? $0.element.priority > $1.element.priority : $0.offset < $1.offset }
            .map(\.element)
    }
}
