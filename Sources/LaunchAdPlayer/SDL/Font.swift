import CSDL2
import Foundation
import LaunchAdCore

/// Owns a TTF_Font (and SDL_ttf's initialisation while any font is open).
public final class Font {
    let pointer: OpaquePointer
    /// The font file's path.
    public let path: String

    /// Opens the TrueType font at `path` at `pointSize` points, starting SDL_ttf if needed; throws `font_failed`.
    public init(path: String, pointSize: Int) throws {
        if libsdlttf.TTF_WasInit() == 0, libsdlttf.TTF_Init() < 0 { throw SDLError(.fontFailed, "cannot start SDL_ttf") }
        guard let f = libsdlttf.TTF_OpenFont(path, Int32(pointSize)) else {
            throw SDLError(.fontFailed, "cannot open the font \(path)")
        }
        pointer = f
        self.path = path
    }

    deinit { libsdlttf.TTF_CloseFont(pointer) }

    /// Changes the size in place: the file is read and parsed once, whatever sizes are drawn.
    public func setSize(_ pointSize: Int) throws {
        guard libsdlttf.TTF_SetFontSize(pointer, Int32(pointSize)) == 0 else {
            throw SDLError(.fontFailed, "cannot size the font \(path) to \(pointSize) pt")
        }
    }

    /// White text, antialiased, as a texture.
    public func render(_ text: String, renderer: Renderer) throws -> Texture {
        guard let s = libsdlttf.TTF_RenderUTF8_Blended(pointer, text, SDL_Color(r: 255, g: 255, b: 255, a: 255)) else {
            throw SDLError(.fontFailed, "cannot render '\(text)'")
        }
        return try Texture.surface(renderer, s)
    }

    /// The width in pixels `text` takes at the current size (for wrapping captions).
    public func width(of text: String) -> Int {
        var w: Int32 = 0, h: Int32 = 0
        return libsdlttf.TTF_SizeUTF8(pointer, text, &w, &h) == 0 ? Int(w) : 0
    }

    /// Whether the font has a glyph for every character (so "跳过" is not drawn as boxes).
    public func covers(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || libsdlttf.TTF_GlyphIsProvided32(pointer, $0.value) != 0 }
    }

    /// Starts SDL_ttf and reads the font file once, so that opening it later (on an
    /// application's thread, when the ad is first drawn) finds it in memory, not on a disk.
    static func warm(_ path: String) {
        if libsdlttf.TTF_WasInit() == 0 { _ = libsdlttf.TTF_Init() }
        _ = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped).withUnsafeBytes { bytes in
            // Touch every page: mapped, not yet read.
            stride(from: 0, to: bytes.count, by: 4096).reduce(UInt8(0)) { $0 &+ bytes[$1] }
        }
    }

    /// The first usable font: the one asked for, else DejaVu from fonts-dejavu-core, else any TrueType font.
    public static func locate(requested: String?) -> String? {
        if let requested { return FileManager.default.isReadableFile(atPath: requested) ? requested : nil }
        let preferred = ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
        if let p = preferred.first(where: { FileManager.default.isReadableFile(atPath: $0) }) { return p }
        let root = "/usr/share/fonts"
        let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.first { $0.hasSuffix(".ttf") }
        return found.map { "\(root)/\($0)" }
    }
}
