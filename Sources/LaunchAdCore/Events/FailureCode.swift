/// Why something could not be opened, decoded, shown or written: the `code` of an `error` event
/// and of a `MediaError`, stable across releases (scripts and collectors match on the text).
/// One enum for the media layer, the display layer and the session, so a code is checked by
/// the compiler where it is made and where it is matched, never compared as a string.
public enum FailureCode: String, Sendable, CaseIterable, Codable {
    // The creative's file or URL.
    case fileNotFound = "file_not_found"
    case permissionDenied = "permission_denied"
    case openFailed = "open_failed"
    case readFailed = "read_failed"
    case notMedia = "not_media"
    case noVideoStream = "no_video_stream"
    case decoderMissing = "decoder_missing"
    case decoderFailed = "decoder_failed"
    case decodeFailed = "decode_failed"
    case outOfMemory = "out_of_memory"
    case notAnImage = "not_an_image"
    case imageFailed = "image_failed"
    case fallbackUnavailable = "fallback_unavailable"
    // Analysis, snapshots and pictures written.
    case noPicture = "no_picture"
    /// `--at` past the end of the creative.
    case pastEnd = "past_end"
    case seekFailed = "seek_failed"
    case convertFailed = "convert_failed"
    case resampleFailed = "resample_failed"
    case filterFailed = "filter_failed"
    case encoderMissing = "encoder_missing"
    case encodeFailed = "encode_failed"
    case writeFailed = "write_failed"
    // The display and the sound.
    case noDisplay = "no_display"
    case windowFailed = "window_failed"
    case windowLost = "window_lost"
    /// The player's own window was not on screen by the ad's wait: a window manager that never
    /// maps it, or a window that could not be made in time.
    case windowUnavailable = "window_unavailable"
    case rendererFailed = "renderer_failed"
    case textureFailed = "texture_failed"
    case surfaceFailed = "surface_failed"
    case fontFailed = "font_failed"
    case noAudio = "no_audio"
    // What the session judged.
    case noFrames = "no_frames"
    case firstFrameTimeout = "first_frame_timeout"
    case mediaTruncated = "media_truncated"
    case mediaStalled = "media_stalled"
    /// The player's thread stopped answering (stuck in a display server, a sound server, a
    /// driver, a read): the run was ended without it (RunDeadline).
    case playerStuck = "player_stuck"
    /// A C library (FFmpeg, SDL2, libcurl) that could not be loaded when first needed.
    case libraryMissing = "library_missing"

    /// A file that could not be opened or decoded at all: a VAST ad gives way to its next media
    /// file on one of these, before its first frame.
    public var isOpenFailure: Bool {
        switch self {
        case .fileNotFound, .openFailed, .permissionDenied, .decoderMissing, .notMedia, .noVideoStream: return true
        default: return false
        }
    }

    /// The VAST error code a player failure is reported with (`[ERRORCODE]`, the `vast_error` field).
    public var vastCode: Int {
        switch self {
        // open_failed: FFmpeg could not fetch it (a 404, a refused connection).
        case .fileNotFound, .openFailed, .permissionDenied: return VASTError.fileNotFound
        case .firstFrameTimeout: return VASTError.mediaTimeout
        // Chosen by its attributes, then not decodable here: a problem displaying it (405); 403
        // is for attributes that rule every file out. Truncated and stalled: shown, then the
        // file ended early or stopped coming.
        default: return VASTError.mediaDisplay
        }
    }
}

/// An `error` event's code: a player failure, or a VAST error (`vast_NNN`).
public enum ErrorCode: Equatable, Sendable {
    case failure(FailureCode)
    case vast(Int)

    /// The code as the event writes it.
    public var text: String {
        switch self {
        case .failure(let f): return f.rawValue
        case .vast(let n): return "vast_\(n)"
        }
    }

    /// The VAST code its Error URIs are sent with.
    public var vastCode: Int {
        switch self {
        case .failure(let f): return f.vastCode
        case .vast(let n): return n
        }
    }
}
