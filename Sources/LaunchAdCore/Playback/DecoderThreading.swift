/// How the player's video decoder spreads its work over the cores.
///
/// Frame threads decode several pictures at once, and each thread adds a picture of delay before
/// the first one comes out (on top of H.264's reorder delay); on two cores those threads also
/// compete with the window's first present. Slice threads add no delay, and one core keeps up
/// with an ordinary ad: 1080p H.264 decodes at about 5.4 ms a picture on one core of the bench
/// machine, a sixth of a core at 30 fps. So pictures up to 1080p60's pixel rate use slice
/// threads (several only when the stream has several slices), and bigger ones frame threads.
public enum DecoderThreading: Sendable, Equatable {
    case slices
    case frames

    /// Pixels a second decoded with slice threads at most: 1920×1088 at 60 frames a second.
    public static let sliceLimit = 1920 * 1088 * 60

    /// The threading for a `width`×`height` video at `framesPerSecond` (0 or less: unknown,
    /// taken as 30).
    public static func forPlayback(width: Int, height: Int, framesPerSecond: Double) -> DecoderThreading {
        let fps = framesPerSecond > 0 && framesPerSecond.isFinite ? framesPerSecond : 30
        let rate = Double(max(0, width)) * Double(max(0, height)) * fps
        return rate <= Double(sliceLimit) ? .slices : .frames
    }
}
