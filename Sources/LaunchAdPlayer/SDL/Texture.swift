import CSDL2
import LaunchAdCore
import LaunchAdMedia

/// Owns an SDL_Texture; keeps its renderer alive, since a texture dies with its renderer.
public final class Texture {
    let pointer: OpaquePointer
    private let renderer: Renderer
    /// The texture's size in pixels.
    public let size: Size

    init(renderer: Renderer, format: UInt32, access: SDL_TextureAccess, size: Size) throws {
        guard let t = libsdl.SDL_CreateTexture(renderer.pointer, format, Int32(access.rawValue), Int32(size.width), Int32(size.height))
        else {
            throw SDLError(.textureFailed, "cannot create a \(size) texture")
        }
        pointer = t
        self.renderer = renderer
        self.size = size
        _ = libsdl.SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
    }

    deinit { libsdl.SDL_DestroyTexture(pointer) }

    /// Drawn without blending: every pixel it covers is replaced.
    var isOpaque: Bool {
        var mode = SDL_BLENDMODE_BLEND
        return libsdl.SDL_GetTextureBlendMode(pointer, &mode) == 0 && mode == SDL_BLENDMODE_NONE
    }

    /// A streaming IYUV texture for yuv420p video pictures. Opaque: blending a full-screen
    /// picture pixel by pixel is the software renderer's most expensive path.
    public static func video(_ renderer: Renderer, size: Size) throws -> Texture {
        let t = try Texture(renderer: renderer, format: launchad_sdl_pixelformat_iyuv(), access: SDL_TEXTUREACCESS_STREAMING, size: size)
        _ = libsdl.SDL_SetTextureBlendMode(t.pointer, SDL_BLENDMODE_NONE)
        return t
    }

    /// An opaque streaming texture in `format`, written through `withPixels`.
    static func streaming(_ renderer: Renderer, format: UInt32, size: Size) throws -> Texture {
        let t = try Texture(renderer: renderer, format: format, access: SDL_TEXTUREACCESS_STREAMING, size: size)
        _ = libsdl.SDL_SetTextureBlendMode(t.pointer, SDL_BLENDMODE_NONE)
        return t
    }

    /// Locks the whole texture and hands its pixels and pitch (bytes per row) to `body`.
    func withPixels(_ body: (UnsafeMutableRawPointer, Int) throws -> Void) throws {
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        try sdlCheck(libsdl.SDL_LockTexture(pointer, nil, &pixels, &pitch), .textureFailed, "locking a video texture")
        defer { libsdl.SDL_UnlockTexture(pointer) }
        guard let pixels else { throw SDLError(.textureFailed, "a locked texture without pixels") }
        try body(pixels, Int(pitch))
    }

    /// A static RGBA texture holding a picture.
    public static func image(_ renderer: Renderer, _ image: RGBAImage) throws -> Texture {
        try rgba(renderer, image.pixels, size: Size(width: image.width, height: image.height))
    }

    /// A static texture of tightly packed RGBA pixels.
    static func rgba(_ renderer: Renderer, _ pixels: [UInt8], size: Size) throws -> Texture {
        let t = try Texture(renderer: renderer, format: launchad_sdl_pixelformat_rgba32(), access: SDL_TEXTUREACCESS_STATIC, size: size)
        _ = try pixels.withUnsafeBytes {
            try sdlCheck(
                libsdl.SDL_UpdateTexture(t.pointer, nil, $0.baseAddress, Int32(size.width * 4)), .textureFailed, "uploading a picture")
        }
        return t
    }

    /// A texture made from a surface (rendered text); the surface is freed here.
    static func surface(_ renderer: Renderer, _ surface: UnsafeMutablePointer<SDL_Surface>) throws -> Texture {
        defer { libsdl.SDL_FreeSurface(surface) }
        guard let t = libsdl.SDL_CreateTextureFromSurface(renderer.pointer, surface) else {
            throw SDLError(.textureFailed, "cannot make a texture from text")
        }
        // Wrap the texture SDL made; the init above is for textures we create.
        return Texture(adopting: t, renderer: renderer, size: Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h)))
    }

    private init(adopting t: OpaquePointer, renderer: Renderer, size: Size) {
        pointer = t
        self.renderer = renderer
        self.size = size
        _ = libsdl.SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
    }

    /// Uploads the three planes of a yuv420p picture.
    public func updateYUV(_ frame: Frame) throws {
        let uploaded: Void? = try frame.withYUVPlanes { p in
            var r = SDL_Rect(x: 0, y: 0, w: p.width, h: p.height)
            try sdlCheck(
                libsdl.SDL_UpdateYUVTexture(pointer, &r, p.y, p.yPitch, p.u, p.uPitch, p.v, p.vPitch),
                .textureFailed, "uploading a video picture")
        }
        if uploaded == nil { throw SDLError(.textureFailed, "a video picture without three planes") }
    }
}
