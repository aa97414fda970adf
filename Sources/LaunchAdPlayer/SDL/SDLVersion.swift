import CSDL2

/// The SDL2 and SDL2_ttf this process runs against; neither needs SDL_Init.
public enum SDLVersion {
    /// The linked SDL2 version as "major.minor.patch", with SDL2_ttf's in parentheses.
    public static var runtime: String {
        var v = SDL_version()
        libsdl.SDL_GetVersion(&v)
        var text = "\(v.major).\(v.minor).\(v.patch)"
        if let ttf = libsdlttf.TTF_Linked_Version() { text += " (SDL2_ttf \(ttf.pointee.major).\(ttf.pointee.minor).\(ttf.pointee.patch))" }
        return text
    }
}
