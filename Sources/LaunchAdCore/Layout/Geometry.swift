/// Integer pixel sizes and rectangles, as SDL and FFmpeg count them.
public struct Size: Equatable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// A size of `width` by `height` pixels.
    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// "720x1280" (also "720X1280").
    public init?(parsing raw: String) {
        let parts = raw.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    /// "WIDTHxHEIGHT", as `--size` takes it.
    public var description: String { "\(width)x\(height)" }
    /// True when either side is zero or negative: nothing to draw.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// The size with width and height swapped (a quarter turn).
    public var transposed: Size { Size(width: height, height: width) }

    /// The largest size with this aspect ratio that fits in `bounds`, never larger than self.
    public func scaledDown(toFit bounds: Size) -> Size {
        guard !isEmpty, width > bounds.width || height > bounds.height else { return self }
        // Integer arithmetic: the limiting side lands exactly on the bound (a Double scale factor
        // can floor 971.9999 to 971), the other side is rounded down.
        let bw = max(0, bounds.width), bh = max(0, bounds.height)
        if bw * height <= bh * width {
            return Size(width: max(1, bw), height: max(1, height * bw / width))
        }
        return Size(width: max(1, width * bh / height), height: max(1, bh))
    }
}

/// A rectangle in pixels, origin at the top left, y growing down.
public struct Rect: Equatable, Sendable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// A rectangle with its top-left corner at (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// A rectangle of `size` at the origin.
    public init(size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    /// The rectangle's width and height.
    public var size: Size { Size(width: width, height: height) }
    /// Right edge, exclusive.
    public var maxX: Int { x + width }
    /// Bottom edge, exclusive.
    public var maxY: Int { y + height }
    /// Horizontal centre, rounded down.
    public var midX: Int { x + width / 2 }
    /// Vertical centre, rounded down.
    public var midY: Int { y + height / 2 }
    /// "X,Y WIDTHxHEIGHT".
    public var description: String { "\(x),\(y) \(width)x\(height)" }

    /// Whether the point lies inside: left and top edges included, right and bottom excluded.
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && px < Double(maxX) && py >= Double(y) && py < Double(maxY)
    }

    /// Scaled by `factor` about its centre (the zoom transition).
    public func scaled(by factor: Double) -> Rect {
        let w = Int((Double(width) * factor).rounded()), h = Int((Double(height) * factor).rounded())
        return Rect(x: x - (w - width) / 2, y: y - (h - height) / 2, width: w, height: h)
    }
}

/// How a picture fills its area (`--fit`): `fit` letterboxes it whole, `fill` crops it to cover the area.
public enum FitMode: String, CaseIterable, Sendable {
    case fit, fill
}
