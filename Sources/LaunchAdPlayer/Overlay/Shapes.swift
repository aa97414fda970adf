import CSDL2
import Foundation
import LaunchAdCore

/// Triangle lists for the overlay's rounded shapes (SDL2 has no rounded-rect or arc primitive).
enum Shapes {
    static func vertex(_ x: Double, _ y: Double, _ c: SDL_Color) -> SDL_Vertex {
        SDL_Vertex(position: SDL_FPoint(x: Float(x), y: Float(y)), color: c, tex_coord: SDL_FPoint(x: 0, y: 0))
    }

    /// A rectangle with fully rounded ends (a pill), as a triangle fan from its centre.
    static func pill(_ r: Rect, color c: SDL_Color, segments: Int = 12) -> [SDL_Vertex] {
        let radius = Double(min(r.width, r.height)) / 2
        let cx = Double(r.x) + Double(r.width) / 2, cy = Double(r.y) + Double(r.height) / 2
        let half = Double(r.width) / 2 - radius
        var outline: [(Double, Double)] = []
        for i in 0...segments {  // right cap, top to bottom
            let a = -Double.pi / 2 + Double.pi * Double(i) / Double(segments)
            outline.append((cx + half + radius * cos(a), cy + radius * sin(a)))
        }
        for i in 0...segments {  // left cap, bottom to top
            let a = Double.pi / 2 + Double.pi * Double(i) / Double(segments)
            outline.append((cx - half + radius * cos(a), cy + radius * sin(a)))
        }
        return fan(center: (cx, cy), outline + [outline[0]], c)
    }

    /// A ring from angle 0 (12 o'clock) clockwise over `fraction` of the circle.
    static func arc(
        center: (Double, Double), radius: Double, thickness: Double, fraction: Double,
        color c: SDL_Color, segments: Int = 48
    ) -> [SDL_Vertex] {
        let n = max(1, Int((Double(segments) * min(1, max(0, fraction))).rounded(.up)))
        guard fraction > 0 else { return [] }
        var out: [SDL_Vertex] = []
        let inner = radius - thickness, sweep = 2 * Double.pi * min(1, fraction)
        for i in 0..<n {
            let a0 = -Double.pi / 2 + sweep * Double(i) / Double(n), a1 = -Double.pi / 2 + sweep * Double(i + 1) / Double(n)
            let o0 = (center.0 + radius * cos(a0), center.1 + radius * sin(a0)),
                o1 = (center.0 + radius * cos(a1), center.1 + radius * sin(a1))
            let i0 = (center.0 + inner * cos(a0), center.1 + inner * sin(a0)), i1 = (center.0 + inner * cos(a1), center.1 + inner * sin(a1))
            out += [
                vertex(o0.0, o0.1, c), vertex(o1.0, o1.1, c), vertex(i0.0, i0.1, c),
                vertex(i0.0, i0.1, c), vertex(o1.0, o1.1, c), vertex(i1.0, i1.1, c)
            ]
        }
        return out
    }

    static func disc(center: (Double, Double), radius: Double, color c: SDL_Color, segments: Int = 48) -> [SDL_Vertex] {
        let outline = (0...segments).map { i -> (Double, Double) in
            let a = 2 * Double.pi * Double(i) / Double(segments)
            return (center.0 + radius * cos(a), center.1 + radius * sin(a))
        }
        return fan(center: center, outline, c)
    }

    /// A thick line segment as two triangles (the "×" drawn when no font is available).
    static func line(_ a: (Double, Double), _ b: (Double, Double), width: Double, color c: SDL_Color) -> [SDL_Vertex] {
        let dx = b.0 - a.0, dy = b.1 - a.1, len = max(0.001, (dx * dx + dy * dy).squareRoot())
        let nx = -dy / len * width / 2, ny = dx / len * width / 2
        let p = [(a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny), (b.0 - nx, b.1 - ny), (a.0 - nx, a.1 - ny)]
        return [
            vertex(p[0].0, p[0].1, c), vertex(p[1].0, p[1].1, c), vertex(p[2].0, p[2].1, c),
            vertex(p[0].0, p[0].1, c), vertex(p[2].0, p[2].1, c), vertex(p[3].0, p[3].1, c)
        ]
    }

    private static func fan(center: (Double, Double), _ outline: [(Double, Double)], _ c: SDL_Color) -> [SDL_Vertex] {
        var out: [SDL_Vertex] = []
        for i in 0..<(outline.count - 1) {
            out += [vertex(center.0, center.1, c), vertex(outline[i].0, outline[i].1, c), vertex(outline[i + 1].0, outline[i + 1].1, c)]
        }
        return out
    }
}
