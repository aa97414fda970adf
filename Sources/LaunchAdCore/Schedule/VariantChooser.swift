import Foundation

/// Picks the creative that best fits a screen, with real sizes instead of the old
/// micro/small/middle/big buckets: first the closest aspect ratio (so a portrait screen gets a
/// portrait creative), then among those the smallest that covers the screen without upscaling,
/// else the largest (the least upscaled).
public enum VariantChooser {
    /// The best of `variants` for `screen`; the first one when the screen size is unknown, nil when there are none.
    public static func best(_ variants: [Creative], for screen: Size) -> Creative? {
        guard !variants.isEmpty, !screen.isEmpty else { return variants.first }
        let target = aspect(screen)
        let closest = variants.map { abs(aspect($0.size) - target) }.min() ?? 0
        // Ratios within 5 % of the best count as the same shape.
        let sameShape = variants.filter { abs(aspect($0.size) - target) <= closest + 0.05 }
        let covering = sameShape.filter { $0.width >= screen.width && $0.height >= screen.height }
        if let smallest = covering.min(by: { area($0) < area($1) }) { return smallest }
        return sameShape.max(by: { area($0) < area($1) })
    }

    static func aspect(_ s: Size) -> Double { log(Double(max(s.width, 1)) / Double(max(s.height, 1))) }
    static func area(_ c: Creative) -> Int { c.width * c.height }
}
