/// The beacons of a VAST icon: IconViewTracking when the player says it was first drawn
/// (`icon_view`), IconClickTracking when it was clicked (`icon_click`); http(s) URIs only.
enum IconTracking {
    static func beacons(_ event: IconEvent, ad: ResolvedAd) -> (name: String, urls: [String])? {
        let i = event.index
        guard ad.linear.icons.indices.contains(i) else { return nil }
        let icon = ad.linear.icons[i]
        switch event.kind {
        case .view: return ("iconView \(i)", icon.viewTracking.filter(Link.isAllowed))
        case .click: return ("iconClick \(i)", icon.clickTracking.filter(Link.isAllowed))
        case .refused, .error: return nil
        }
    }
}
