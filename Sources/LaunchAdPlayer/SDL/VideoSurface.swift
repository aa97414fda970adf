import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdMedia

/// The video picture on screen, as a texture. With an accelerated renderer its yuv420p planes
/// go to an IYUV texture as decoded and the GPU converts and scales (ffplay's way). SDL's
/// software renderer would convert the whole coded picture to RGB in C and then stretch it at
/// every draw: there swscale converts and scales each picture once, at draw time, into a
/// streaming texture of exactly the drawn size in the window's own pixel format, so drawing it
/// (again, for an overlay change) is a plain copy.
final class VideoSurface {
    private let renderer: Renderer
    private let matrix: ColorMatrix
    /// Set when the renderer is SDL's software one and the window format is one swscale writes.
    private var converter: PictureConverter?
    private let packedFormat: UInt32
    private var picture: DecodedPicture?
    private var generation = 0
    private var yuv: Texture?
    private var yuvGeneration = -1
    private var packed: Texture?
    private var packedGeneration = -1
    private var packedDrawn: Size?

    init(renderer: Renderer, matrix: ColorMatrix) {
        self.renderer = renderer
        self.matrix = matrix
        (converter, packedFormat) = VideoSurface.packedPath(renderer)
    }

    /// The media time of the picture held.
    var pts: Double? { picture?.pts }

    /// Takes the next picture. An accelerated renderer gets it at once; the software path
    /// converts it when it is drawn, at the size it is drawn.
    func update(_ p: DecodedPicture) throws {
        let previous = (picture, generation)
        picture = p
        generation += 1
        guard converter == nil else { return }
        do { try uploadYUV() } catch {
            (picture, generation) = previous  // what is on screen stays as it was
            throw error
        }
    }

    /// The texture to draw at `drawn` (the destination rectangle's size, before rotation), and
    /// the part of it that holds the picture (nil: all of it).
    func texture(drawn: Size) throws -> (texture: Texture, source: Rect?)? {
        guard picture != nil else { return nil }
        // A picture drawn far larger than any screen (fill mode on a sliver) stays a YUV
        // texture of its own size: SDL stretches only the visible part.
        guard let converter, drawn.width > 0, drawn.height > 0, drawn.width <= 8192, drawn.height <= 8192 else {
            try uploadYUV()
            return yuv.map { ($0, nil) }
        }
        let source = Rect(size: drawn)
        if packedGeneration == generation, packedDrawn == drawn, let packed { return (packed, source) }
        do {
            if packedDrawn != drawn {
                // swscale's SIMD converters write whole blocks of pixels and rows: room for them
                // past the picture's right and bottom edges, never drawn.
                let padded = Size(width: (drawn.width + 31) & ~31, height: drawn.height + 2)
                packed = try Texture.streaming(renderer, format: packedFormat, size: padded)
                packedDrawn = drawn
            }
            try packed?.withPixels { pixels, pitch in
                try converter.convert(picture!.frame, width: drawn.width, height: drawn.height, matrix: matrix, into: pixels, pitch: pitch)
            }
            packedGeneration = generation
            return packed.map { ($0, source) }
        } catch {
            // Whatever swscale or SDL refused, the IYUV texture still shows the picture.
            self.converter = nil
            (packed, packedDrawn) = (nil, nil)
            try uploadYUV()
            return yuv.map { ($0, nil) }
        }
    }

    private func uploadYUV() throws {
        guard let picture, yuvGeneration != generation else { return }
        let coded = Size(width: picture.frame.width, height: picture.frame.height)
        if yuv?.size != coded { yuv = try Texture.video(renderer, size: coded) }
        try yuv?.updateYUV(picture.frame)
        yuvGeneration = generation
    }

    /// swscale's output format matching the window's, when the renderer is the software one.
    private static func packedPath(_ renderer: Renderer) -> (PictureConverter?, UInt32) {
        guard renderer.name == "software", let window = libsdl.SDL_RenderGetWindow(renderer.pointer) else { return (nil, 0) }
        let format = libsdl.SDL_GetWindowPixelFormat(window)
        let threads = min(4, ProcessInfo.processInfo.activeProcessorCount)
        // 32-bit little-endian words 0xXXRRGGBB and 0xXXBBGGRR: bytes B,G,R,X and R,G,B,X.
        if format == launchad_sdl_pixelformat_rgb888() { return (PictureConverter(layout: .bgrx, threads: threads), format) }
        if format == launchad_sdl_pixelformat_bgr888() { return (PictureConverter(layout: .rgbx, threads: threads), format) }
        return (nil, 0)
    }
}
