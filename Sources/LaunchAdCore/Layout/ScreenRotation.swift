/// How the whole scene is turned on the output, for a panel mounted on its side: the scene is
/// laid out upright in its own (scene) space and drawn turned clockwise by `degrees`. Maps
/// rectangles and points between the scene and the output, both ways.
public enum ScreenRotation: Int, CaseIterable, Sendable {
    case none = 0, quarter = 90, half = 180, threeQuarter = 270

    /// The clockwise turn in degrees: 0, 90, 180 or 270.
    public var degrees: Int { rawValue }

    /// The scene's shape on an output of `output` size: turned a quarter, its sides swap.
    public func scene(_ output: Size) -> Size { rawValue % 180 == 0 ? output : output.transposed }

    /// Where the scene point (x, y) lands on the output, for an output of `output` size.
    public func toOutput(x: Double, y: Double, output: Size) -> (x: Double, y: Double) {
        let w = Double(output.width), h = Double(output.height)
        switch self {
        case .none: return (x, y)
        case .quarter: return (w - y, x)
        case .half: return (w - x, h - y)
        case .threeQuarter: return (y, h - x)
        }
    }

    /// The scene point under the output point (X, Y): a click or touch on the panel.
    public func toScene(x: Double, y: Double, output: Size) -> (x: Double, y: Double) {
        let w = Double(output.width), h = Double(output.height)
        switch self {
        case .none: return (x, y)
        case .quarter: return (y, w - x)
        case .half: return (w - x, h - y)
        case .threeQuarter: return (h - y, x)
        }
    }

    /// The output rectangle a scene rectangle covers.
    public func toOutput(_ r: Rect, output: Size) -> Rect {
        let a = toOutput(x: Double(r.x), y: Double(r.y), output: output)
        let b = toOutput(x: Double(r.maxX), y: Double(r.maxY), output: output)
        let x0 = Int(min(a.x, b.x).rounded()), y0 = Int(min(a.y, b.y).rounded())
        let x1 = Int(max(a.x, b.x).rounded()), y1 = Int(max(a.y, b.y).rounded())
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
