import Foundation

/// Counts flashes after ITU-R BT.1702 / the Harding test, simplified to what per-picture averages can say:
/// a general flash is a pair of opposing changes of at least 10 % of the relative luminance where the
/// darker picture is below 0.8; a red flash is a pair of opposing changes of saturated red
/// (R / (R+G+B) >= 0.8) of at least 20/320 in (R-G-B), as WCAG 2 words it. The unit is a whole picture's
/// average (signalstats YAVG, UAVG, VAVG turned into linear RGB), not the 25 %-of-screen area of the
/// Harding test: a small flashing patch is missed, a whole-screen flash is not.
public struct FlashCounter: Sendable {
    /// The smallest change in relative luminance (0...1) that counts as half a general flash.
    public static let luminanceStep = 0.1
    /// A luminance change counts only when the darker picture's relative luminance is below this.
    public static let darkerBelow = 0.8
    /// A picture is saturated red when R / (R+G+B) reaches this.
    public static let redRatio = 0.8
    /// The smallest change in (R-G-B) of saturated red that counts as half a red flash.
    public static let redStep = 20.0 / 320.0
    /// BT.1886's display gamma.
    public static let gamma = 2.4

    /// Flashes (and where) in `pictures`; `fullRange` when the video is tagged pc (0-255) rather than tv (16-235).
    public struct Result: Equatable, Sendable {
        /// The most flashes of either kind in any one-second window.
        public var mostPerSecond: Int
        /// Each flash from the start of its first change to the end of its second, overlapping ones merged.
        public var spans: [Interval]
    }

    /// Counts the flashes in `pictures` (in time order); `fullRange` when the video is tagged pc (0-255).
    public static func count(_ pictures: [PictureReading], fullRange: Bool) -> Result {
        let samples = pictures.map { p -> (t: Double, luminance: Double, red: Double) in
            let (r, g, b) = linearRGB(p, fullRange: fullRange)
            let luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
            let sum = r + g + b
            let red = sum > 0 && r / sum >= redRatio ? max(0, r - g - b) : 0
            return (p.seconds, luminance, red)
        }
        let general = transitions(samples.map { ($0.t, $0.luminance) }, step: luminanceStep) { min($0, $1) < darkerBelow }
        let red = transitions(samples.map { ($0.t, $0.red) }, step: redStep) { _, _ in true }
        var spans: [Interval] = []
        for list in [general, red] {
            // Two opposing changes make one flash.
            var i = 0
            while i + 1 < list.count {
                spans.append(Interval(list[i].start, list[i + 1].end))
                i += 2
            }
        }
        return Result(mostPerSecond: max(mostInOneSecond(general), mostInOneSecond(red)), spans: merged(spans))
    }

    /// Y'CbCr averages to linear R, G, B in 0...1 (BT.709 matrix, BT.1886 gamma).
    static func linearRGB(_ p: PictureReading, fullRange: Bool) -> (Double, Double, Double) {
        let scale = Double(1 << max(0, p.bitDepth - 8))
        let y: Double, cb: Double, cr: Double
        if fullRange {
            y = p.luma / (255 * scale); cb = (p.cb - 128 * scale) / (255 * scale); cr = (p.cr - 128 * scale) / (255 * scale)
        } else {
            y = (p.luma - 16 * scale) / (219 * scale); cb = (p.cb - 128 * scale) / (224 * scale); cr = (p.cr - 128 * scale) / (224 * scale)
        }
        func lin(_ v: Double) -> Double { pow(min(1, max(0, v)), gamma) }
        let r = y + 1.5748 * cr
        let g = y - 0.1873 * cb - 0.4681 * cr
        let b = y + 1.8556 * cb
        return (lin(r), lin(g), lin(b))
    }

    /// Changes between turning points of at least `step` (smaller wiggles do not make a turning point)
    /// that `counts` accepts, given the two ends' values.
    static func transitions(_ series: [(Double, Double)], step: Double, counts: (Double, Double) -> Bool) -> [Interval] {
        guard let first = series.first else { return [] }
        var turns: [(t: Double, v: Double)] = []
        var low = first, high = first
        var direction = 0
        var extreme = first
        for s in series.dropFirst() {
            switch direction {
            case 0:
                if s.1 < low.1 { low = s }
                if s.1 > high.1 { high = s }
                if s.1 - low.1 >= step {
                    turns.append((low.0, low.1)); direction = 1; extreme = s
                } else if high.1 - s.1 >= step {
                    turns.append((high.0, high.1)); direction = -1; extreme = s
                }
            case 1:
                if s.1 > extreme.1 {
                    extreme = s
                } else if extreme.1 - s.1 >= step {
                    turns.append((extreme.0, extreme.1)); direction = -1; extreme = s
                }
            default:
                if s.1 < extreme.1 {
                    extreme = s
                } else if s.1 - extreme.1 >= step {
                    turns.append((extreme.0, extreme.1)); direction = 1; extreme = s
                }
            }
        }
        if direction != 0 { turns.append((extreme.0, extreme.1)) }
        return zip(turns, turns.dropFirst()).compactMap { a, b in
            abs(b.v - a.v) >= step && counts(a.v, b.v) ? Interval(a.t, b.t) : nil
        }
    }

    /// Flashes (pairs of changes) ending within any one second.
    static func mostInOneSecond(_ changes: [Interval]) -> Int {
        var most = 0, start = 0
        for (i, c) in changes.enumerated() {
            while c.end - changes[start].end >= 1.0 - 1e-9 { start += 1 }
            most = max(most, (i - start + 1) / 2)
        }
        return most
    }

    static func merged(_ spans: [Interval]) -> [Interval] {
        var out: [Interval] = []
        for s in spans.sorted(by: { $0.start < $1.start }) {
            if let last = out.last, s.start <= last.end { out[out.count - 1].end = max(last.end, s.end) } else { out.append(s) }
        }
        return out
    }
}
