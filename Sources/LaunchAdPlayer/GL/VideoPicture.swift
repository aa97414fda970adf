import LaunchAdCore
import LaunchAdMedia

/// The video picture on screen, whatever draws it: an SDL texture (`VideoSurface`) or the
/// application's GL context (`GLVideoPicture`).
protocol VideoPictureHolder: AnyObject {
    /// The media time of the picture held.
    var pts: Double? { get }
    /// Takes the next picture.
    func update(_ p: DecodedPicture) throws
    /// The SDL texture to draw at `drawn` and the part of it holding the picture; nil when the
    /// picture is not drawn through SDL.
    func texture(drawn: Size) throws -> (texture: Texture, source: Rect?)?
}

extension VideoSurface: VideoPictureHolder {}

/// The video picture for a GL output: held as decoded (no SDL texture, no copy) until the next
/// frame uploads its three planes into the application's context.
final class GLVideoPicture: VideoPictureHolder {
    private(set) var picture: DecodedPicture?
    private let matrix: ColorMatrix

    init(matrix: ColorMatrix) { self.matrix = matrix }

    var pts: Double? { picture?.pts }
    func update(_ p: DecodedPicture) throws { picture = p }
    func texture(drawn: Size) throws -> (texture: Texture, source: Rect?)? { nil }

    /// The conversion for `p`: the stream's matrix, the picture's range and height.
    func conversion(_ p: DecodedPicture) -> YUVConversion {
        YUVConversion(matrix, fullRange: p.frame.isFullRange, height: p.frame.height)
    }
}
