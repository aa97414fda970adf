import CSDL2
import LaunchAdCore

/// Owns an RGBA SDL_Surface in memory: what an offscreen renderer draws into.
final class Surface {
    let pointer: UnsafeMutablePointer<SDL_Surface>
    let size: Size

    init(_ size: Size) throws {
        guard let s = libsdl.SDL_CreateRGBSurfaceWithFormat(0, Int32(size.width), Int32(size.height), 32, launchad_sdl_pixelformat_rgba32())
        else {
            throw SDLError(.surfaceFailed, "cannot create a \(size) picture in memory")
        }
        pointer = s
        self.size = size
    }

    deinit { libsdl.SDL_FreeSurface(pointer) }
}
