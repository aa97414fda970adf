/// A linear map from data values (seconds, LUFS) to SVG pixels, with round tick values.
struct PlotScale {
    let low: Double
    let high: Double
    /// The pixels `low` and `high` land on; `to` may be smaller than `from` (a y axis grows upward).
    let from: Double
    let to: Double

    /// Pixel position of `value`, kept inside the plot.
    func callAsFunction(_ value: Double) -> Double {
        guard high > low else { return from }
        let v = Swift.min(Swift.max(value, low), high)
        return from + (v - low) / (high - low) * (to - from)
    }

    /// Round values from `low` to `high`, at most `count` of them (1, 2, 5 times a power of ten).
    func ticks(atMost count: Int) -> [Double] {
        let span = high - low
        guard span > 0, count > 1 else { return [low] }
        var step = 1.0
        let raw = span / Double(count - 1)
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        while power > raw { power /= 10 }
        for m in [1.0, 2, 5, 10] where m * power >= raw { step = m * power; break }
        let first = (low / step).rounded(.up) * step
        return stride(from: first, through: high + step * 1e-9, by: step).map { ($0 / step).rounded() * step }
    }
}
