import CSDL2
import XCTest

@testable import LaunchAdCore
@testable import LaunchAdPlayer

/// The frame is not cleared before an opaque picture that covers it (a full-frame fill per video
/// frame on the software renderer), and is whenever any of the last frame could show through.
/// Drawn offscreen on SDL's software renderer, over a red "last frame", pixels read back.
final class SceneClearTests: XCTestCase {
    private let window = Size(width: 64, height: 36)
    private let hidden = SkipButtonState(visible: false, enabled: false, text: "", progress: 0)

    private func canvas() throws -> Renderer {
        let r = try Renderer(surface: try Surface(window))
        r.clear(r: 255, g: 0, b: 0)  // what the last frame left
        return r
    }

    /// An opaque green picture, as the video path makes it.
    private func green(_ r: Renderer, _ size: Size) throws -> Texture {
        let t = try Texture.streaming(r, format: launchad_sdl_pixelformat_rgb888(), size: size)
        try t.withPixels { pixels, pitch in
            for y in 0..<size.height {
                let row = pixels.advanced(by: y * pitch).assumingMemoryBound(to: UInt32.self)
                for x in 0..<size.width { row[x] = 0x00_00FF00 }
            }
        }
        return t
    }

    private func scene(_ content: Size, _ picture: Texture, rotation: Int = 0, fit: FitMode = .fit) -> Scene {
        Scene(
            layout: AdLayout(window: window, mode: .fullscreen, skipStyle: .text, picture: content, fit: fit), content: (content, rotation),
            picture: picture, skip: hidden, skipStyle: .text)
    }

    private func pixel(_ r: Renderer, _ x: Int, _ y: Int) throws -> [UInt8] {
        Array(try r.readPixels(Rect(x: x, y: y, width: 1, height: 1)).prefix(3))
    }

    func testACoveringOpaquePictureIsDrawnWithoutAClearAndShowsEverywhere() throws {
        let r = try canvas()
        let s = scene(window, try green(r, window))
        XCTAssertTrue(s.pictureCoversWindow(screen: .none))
        s.draw(on: r, skipView: nil)
        for (x, y) in [(0, 0), (63, 0), (0, 35), (63, 35), (32, 18)] {
            XCTAssertEqual(try pixel(r, x, y), [0, 255, 0], "(\(x),\(y))")
        }
    }

    func testALetterboxedPictureStillGetsBlackBars() throws {
        let r = try canvas()
        let s = scene(Size(width: 32, height: 36), try green(r, Size(width: 32, height: 36)))
        XCTAssertFalse(s.pictureCoversWindow(screen: .none))
        s.draw(on: r, skipView: nil)
        XCTAssertEqual(try pixel(r, 2, 18), [0, 0, 0], "the bar is black, not the last frame")
        XCTAssertEqual(try pixel(r, 61, 18), [0, 0, 0])
        XCTAssertEqual(try pixel(r, 32, 18), [0, 255, 0])
    }

    func testFillCoversSoNoClearButAPictureWithAlphaOrATurnIsCleared() throws {
        let r = try canvas()
        XCTAssertTrue(
            scene(Size(width: 32, height: 36), try green(r, Size(width: 32, height: 36)), fit: .fill)
                .pictureCoversWindow(screen: .none))
        let seeThrough = try Texture.rgba(r, [UInt8](repeating: 128, count: 64 * 36 * 4), size: window)
        XCTAssertFalse(scene(window, seeThrough).pictureCoversWindow(screen: .none))
        let opaque = try green(r, window)
        XCTAssertFalse(scene(window, opaque, rotation: 180).pictureCoversWindow(screen: .none))
        XCTAssertFalse(scene(window, opaque).pictureCoversWindow(screen: .half))
    }
}
