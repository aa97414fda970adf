import Foundation

/// Caption timestamps as milliseconds: WebVTT's `[hh:]mm:ss.ttt`, SRT's `hh:mm:ss,ttt`, and
/// TTML's clock (`hh:mm:ss.fff`, `hh:mm:ss:frames`) and offset (`1.5s`, `200ms`, `25f`, `90t`) times.
enum CaptionTime {
    /// The longest time accepted (a day): larger values are typos or hostile.
    static let maxMs = 86_400_000

    /// `[hh:]mm:ss(.|,)fff`; `hoursRequired` for SRT. Minutes and seconds below 60.
    static func clock(_ raw: Substring, hoursRequired: Bool = false) -> Int? {
        let s = raw.trimmingCharacters(in: .whitespaces)
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 || (parts.count == 2 && !hoursRequired) else { return nil }
        let hours = parts.count == 3 ? parts[0] : "0"
        let minutes = parts[parts.count - 2]
        let secParts = parts[parts.count - 1].split(omittingEmptySubsequences: false) { $0 == "." || $0 == "," }
        guard secParts.count <= 2, let h = digits(hours, max: 4), let m = digits(minutes, max: 2), let sec = digits(secParts[0], max: 2),
            m < 60, sec < 60
        else { return nil }
        var ms = 0
        if secParts.count == 2 {
            let f = secParts[1]
            guard digits(f, max: 9) != nil else { return nil }
            // ".5" is 500 ms, ".050" 50 ms: scale the fraction to three digits.
            ms = Int(String(f.prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0
        }
        let total = ((h * 60 + m) * 60 + sec) * 1000 + ms
        return total <= maxMs ? total : nil
    }

    /// TTML: `hh:mm:ss[.fff]`, `hh:mm:ss:ff` (frames at `frameRate`), or a number with h/m/s/ms/f/t.
    static func ttml(_ raw: String, frameRate: Double, tickRate: Double) -> Int? {
        let s = raw.trimmingCharacters(in: .whitespaces)
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 4 {
            guard let base = clock(parts[0..<3].joined(separator: ":")[...]), let f = Double(parts[3]), f >= 0, f < max(1, frameRate) else {
                return nil
            }
            return base + Int((f / frameRate * 1000).rounded())
        }
        if parts.count == 3 { return clock(s[...]) }
        let units: [(String, Double)] = [
            ("ms", 1), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("f", 1000 / frameRate), ("t", 1000 / tickRate)
        ]
        for (unit, scale) in units where s.hasSuffix(unit) {
            guard let v = Double(s.dropLast(unit.count)), v.isFinite, v >= 0 else { return nil }
            let ms = v * scale
            return ms <= Double(maxMs) ? Int(ms.rounded()) : nil
        }
        return nil
    }

    private static func digits(_ s: Substring, max: Int) -> Int? {
        guard !s.isEmpty, s.count <= max, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(s)
    }
}
