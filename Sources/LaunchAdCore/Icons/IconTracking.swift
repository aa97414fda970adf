/// The beacons of a VAST icon: IconViewTracking when the player says it was first drawn
/// (`icon_view`), IconClickTracking when it was clicked (`icon_click`); http(s) URIs only.
enum IconTracking {
    static func beacons(_ event: AdEvent, ad: ResolvedAd) -> (name: String, urls: [String])? {
        guard case .int(let i)? = event["index"], ad.linear.icons.indices.contains(i) else { return nil }
        let icon = ad.linear.icons[i]
        switch event.name {
        case "icon_view": return ("iconView \(i)", icon.viewTracking.filter(Link.isAllowed))
        case "icon_click": return ("iconClick \(i)", icon.clickTracking.filter(Link.isAllowed))
        default: return nil
        }
    }
}
