import CSDL2
import LaunchAdCore

/// Owns a 32-bit SDL_Surface in memory (RGBA unless said): what an offscreen renderer draws into.
final class Surface {
    let pointer: UnsafeMutablePointer<SDL_Surface>
    let size: Size

    init(_ size: Size, format: UInt32 = launchad_sdl_pixelformat_rgba32()) throws {
        guard let s = libsdl.SDL_CreateRGBSurfaceWithFormat(0, Int32(size.width), Int32(size.height), 32, format)
        else {
            throw SDLError(.surfaceFailed, "cannot create a \(size) picture in memory")
        }
        pointer = s
        self.size = size
    }

    deinit { libsdl.SDL_FreeSurface(pointer) }
}
