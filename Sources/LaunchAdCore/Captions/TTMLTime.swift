import Foundation

/// TTML time expressions (W3C TTML2 §10.3.1, as IMSC uses them) and the document's rates,
/// read by their grammar only: clock time `hh:mm:ss`, `hh:mm:ss.fff` or `hh:mm:ss:ff[.sub]`
/// (frames at the effective frame rate), offset time `12`, `1.5` + `h`, `m`, `s`, `ms`, `f`, `t`.
/// No exponent, sign, NaN or infinity is a TTML number, so none is read as one; every value is
/// built from digits and converted through `CaptionTime`, so no document number can trap.
struct TTMLTime {
    /// Frames per second: `ttp:frameRate` × `ttp:frameRateMultiplier` (30 when unsaid).
    var frameRate = 30.0
    /// `ttp:subFrameRate` (1 when unsaid).
    var subFrameRate = 1
    /// Ticks per second: `ttp:tickRate`, else the frame rate × the sub-frame rate when a frame
    /// rate is said, else 1 (TTML's defaults).
    var tickRate = 1.0

    /// The rates the root `<tt>` element's attributes (by local name) say; refused (thrown, the
    /// whole file) when one is not what TTML allows: `ttp:frameRate="1e-306"` is not a rate.
    init(root attribute: (String) -> String?) throws {
        var frames = 30
        if let raw = attribute("frameRate") {
            guard let n = Self.wholeNumber(raw), (1...1000).contains(n) else {
                throw CaptionError("the TTML file's ttp:frameRate '\(raw.prefix(40))' is not a whole number of frames from 1 to 1000")
            }
            frames = n
        }
        var multiplier = 1.0
        if let raw = attribute("frameRateMultiplier") {
            let parts = raw.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, let n = Self.wholeNumber(parts[0]), let d = Self.wholeNumber(parts[1]), (1...1_000_000).contains(n),
                (1...1_000_000).contains(d)
            else {
                throw CaptionError("the TTML file's ttp:frameRateMultiplier '\(raw.prefix(40))' is not two whole numbers from 1 to 1000000")
            }
            multiplier = Double(n) / Double(d)
        }
        if let raw = attribute("subFrameRate") {
            guard let n = Self.wholeNumber(raw), (1...1000).contains(n) else {
                throw CaptionError("the TTML file's ttp:subFrameRate '\(raw.prefix(40))' is not a whole number from 1 to 1000")
            }
            subFrameRate = n
        }
        frameRate = Double(frames) * multiplier
        if let raw = attribute("tickRate") {
            guard let n = Self.wholeNumber(raw), (1...1_000_000_000_000).contains(n) else {
                throw CaptionError("the TTML file's ttp:tickRate '\(raw.prefix(40))' is not a whole number of ticks from 1 to 10^12")
            }
            tickRate = Double(n)
        } else if attribute("frameRate") != nil {
            tickRate = frameRate * Double(subFrameRate)
        }
    }

    /// The default rates (30 frames, 1 tick a second).
    init() {}

    /// A time expression in ms (saturated far past any ad), nil when it is not one.
    func ms(_ raw: String) -> Int? {
        let text = Array(raw.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars)
        return text.contains(":") ? clock(text) : offset(text)
    }

    /// `hours:minutes:seconds` with an optional `.fraction`, or `:frames` and an optional `.subframes`.
    private func clock(_ s: [Unicode.Scalar]) -> Int? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        let hours = parts[0], minutes = parts[1]
        guard hours.count >= 2, Self.allDigits(hours), minutes.count == 2, Self.allDigits(minutes) else { return nil }
        let secondsPart = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let seconds = secondsPart[0]
        guard seconds.count == 2, Self.allDigits(seconds) else { return nil }
        let m = CaptionTime.digitsValue(minutes), sec = CaptionTime.digitsValue(seconds)
        guard m < 60, sec < 60 else { return nil }
        var total = CaptionTime.ms(hours: CaptionTime.digitsValue(hours), minutes: m, seconds: sec, millis: 0)
        if parts.count == 3, secondsPart.count == 2 {
            guard let fraction = Self.fraction(secondsPart[1]), let ms = CaptionTime.ms(seconds: fraction) else { return nil }
            total = CaptionTime.add(total, ms)
        } else if parts.count == 4 {
            guard secondsPart.count == 1 else { return nil }
            let frameParts = parts[3].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let frames = frameParts[0]
            guard frames.count >= 2, Self.allDigits(frames) else { return nil }
            let f = Double(CaptionTime.digitsValue(frames))
            var sub = 0.0
            if frameParts.count == 2 {
                guard !frameParts[1].isEmpty, Self.allDigits(frameParts[1]) else { return nil }
                sub = Double(CaptionTime.digitsValue(frameParts[1]))
                guard sub < Double(subFrameRate) else { return nil }
            }
            // A frame number at or past the rate is not a frame of this second.
            guard f < frameRate.rounded(.up), let ms = CaptionTime.ms(seconds: (f + sub / Double(subFrameRate)) / frameRate) else {
                return nil
            }
            total = CaptionTime.add(total, ms)
        } else if secondsPart.count != 1 {
            return nil
        }
        return total
    }

    /// `count[.fraction]metric`.
    private func offset(_ s: [Unicode.Scalar]) -> Int? {
        let metrics: [(String, Double)] = [("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1), ("f", 1 / frameRate), ("t", 1 / tickRate)]
        let text = String(String.UnicodeScalarView(s))
        for (metric, seconds) in metrics where text.hasSuffix(metric) {
            let number = Array(s.dropLast(metric.unicodeScalars.count))
            let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard !parts[0].isEmpty, Self.allDigits(parts[0]) else { return nil }
            // The count as a Double from its digits: twenty digits lose precision, never range.
            var value = Double(String(String.UnicodeScalarView(parts[0]))) ?? .infinity
            if parts.count == 2 {
                guard let fraction = Self.fraction(parts[1]) else { return nil }
                value += fraction
            }
            return CaptionTime.ms(seconds: value * seconds)
        }
        return nil
    }

    /// `.digits` after the point, as a fraction of one.
    private static func fraction(_ digits: ArraySlice<Unicode.Scalar>) -> Double? {
        guard !digits.isEmpty, allDigits(digits) else { return nil }
        return Double("0." + String(String.UnicodeScalarView(digits.prefix(18))))
    }

    private static func allDigits<C: Collection>(_ s: C) -> Bool where C.Element == Unicode.Scalar { s.allSatisfy(\.isASCIIDigit) }

    /// TTML's `<digit>+`, at most 13 digits.
    private static func wholeNumber<S: StringProtocol>(_ raw: S) -> Int? {
        let t = raw.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.count <= 13, t.unicodeScalars.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(t)
    }
}
