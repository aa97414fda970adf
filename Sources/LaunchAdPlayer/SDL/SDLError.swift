import CSDL2
import LaunchAdCore

/// An SDL failure with SDL_GetError's text read at the moment the call failed.
public struct SDLError: Error, CustomStringConvertible {
    /// Short machine-readable code reported as the run's failure: `no_display`, `no_audio`, `window_failed`, ...
    public let code: FailureCode
    /// What failed, with SDL's own error text.
    public let message: String

    init(code: FailureCode, message: String) {
        self.code = code
        self.message = message
    }

    init(_ code: FailureCode, _ what: String) {
        self.code = code
        self.message = "\(what): \(libsdl.SDL_GetError().map { String(cString: $0) } ?? "unknown SDL error")"
    }

    /// The message.
    public var description: String { message }
}

/// Throws for SDL's negative "failed" return values.
@discardableResult
func sdlCheck(_ ret: Int32, _ code: FailureCode, _ what: @autoclosure () -> String) throws -> Int32 {
    if ret < 0 { throw SDLError(code, what()) }
    return ret
}
