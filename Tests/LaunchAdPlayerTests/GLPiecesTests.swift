import XCTest

@testable import LaunchAdCore
@testable import LaunchAdMedia
@testable import LaunchAdPlayer

/// The parts of the GL output that need no context: the version a context reports, the GLSL
/// it is given, the YUV conversion, the quads' geometry and the overlay's ink.
final class GLPiecesTests: XCTestCase {
    func testVersionStringsAsDriversWriteThem() {
        XCTAssertEqual(GLVersion("4.5 (Core Profile) Mesa 22.3.6"), GLVersion(isES: false, major: 4, minor: 5, compatibility: false))
        XCTAssertEqual(GLVersion("3.3.0 NVIDIA 535.54.03"), GLVersion(isES: false, major: 3, minor: 3, compatibility: false))
        XCTAssertEqual(GLVersion("2.1 Mesa 22.3.6"), GLVersion(isES: false, major: 2, minor: 1, compatibility: true))
        XCTAssertEqual(GLVersion("3.0 Mesa 22.3.6"), GLVersion(isES: false, major: 3, minor: 0, compatibility: true))
        XCTAssertEqual(GLVersion("OpenGL ES 3.2 Mesa 22.3.6"), GLVersion(isES: true, major: 3, minor: 2, compatibility: false))
        XCTAssertEqual(GLVersion("OpenGL ES 2.0 (ANGLE 2.1.0)"), GLVersion(isES: true, major: 2, minor: 0, compatibility: false))
        XCTAssertEqual(GLVersion("OpenGL ES-CM 1.1 Mesa")?.major, 1, "ES 1 is read, and refused by its major")
        XCTAssertNil(GLVersion(""))
        XCTAssertNil(GLVersion("Mesa"))
    }

    func testEachContextGetsTheGLSLItTakes() {
        func first(_ v: GLVersion, fragment: Bool = false) -> String {
            String(GLShaders.header(v, fragment: fragment).split(separator: "\n")[0])
        }
        XCTAssertEqual(first(GLVersion(isES: false, major: 4, minor: 5, compatibility: false)), "#version 150")
        XCTAssertEqual(first(GLVersion(isES: false, major: 3, minor: 2, compatibility: true)), "#version 150")
        XCTAssertEqual(first(GLVersion(isES: false, major: 3, minor: 1, compatibility: false)), "#version 130")
        XCTAssertEqual(first(GLVersion(isES: false, major: 2, minor: 1, compatibility: true)), "#version 120")
        XCTAssertEqual(first(GLVersion(isES: true, major: 3, minor: 0, compatibility: false)), "#version 300 es")
        XCTAssertEqual(first(GLVersion(isES: true, major: 2, minor: 0, compatibility: false)), "#version 100")
        let es2 = GLShaders.header(GLVersion(isES: true, major: 2, minor: 0, compatibility: false), fragment: true)
        XCTAssertTrue(es2.contains("precision mediump float") && es2.contains("gl_FragColor"), es2)
        let core = GLShaders.header(GLVersion(isES: false, major: 4, minor: 5, compatibility: false), fragment: true)
        XCTAssertTrue(core.contains("out vec4") && !core.contains("precision"), core)
    }

    /// What the shader computes, in the test's own arithmetic: rgb = matrix * (yuv - offset).
    private func rgb(_ c: YUVConversion, _ y: Int, _ u: Int, _ v: Int) -> [Int] {
        let d = [Float(y) / 255 - c.offset[0], Float(u) / 255 - c.offset[1], Float(v) / 255 - c.offset[2]]
        return (0..<3).map { i in
            let value = (c.matrix[i] * d[0] + c.matrix[3 + i] * d[1] + c.matrix[6 + i] * d[2]) * 255
            return Int(min(255, max(0, value)).rounded())
        }
    }

    /// Within one step of each channel (the standards' YUV triples are themselves rounded).
    private func assertNear(_ got: [Int], _ want: [Int], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(zip(got, want).allSatisfy { abs($0 - $1) <= 1 }, "\(got) against \(want)", file: file, line: line)
    }

    func testYUVConversionsMatchTheStandards() {
        // Limited range: 16 is black, 235 white, 128 no colour; BT.601 red is (81, 90, 240),
        // BT.709 red (63, 102, 240); full range: 0 black, 255 white.
        let bt601 = YUVConversion(.bt601, fullRange: false, height: 1080)
        assertNear(rgb(bt601, 16, 128, 128), [0, 0, 0])
        assertNear(rgb(bt601, 235, 128, 128), [255, 255, 255])
        assertNear(rgb(bt601, 81, 90, 240), [255, 0, 0])
        let bt709 = YUVConversion(.bt709, fullRange: false, height: 360)
        assertNear(rgb(bt709, 63, 102, 240), [255, 0, 0])
        let full = YUVConversion(.bt601, fullRange: true, height: 360)
        assertNear(rgb(full, 0, 128, 128), [0, 0, 0])
        assertNear(rgb(full, 255, 128, 128), [255, 255, 255])
        assertNear(rgb(full, 76, 85, 255), [255, 0, 0])
        // Untagged: BT.601 up to 576 lines, BT.709 above, as SDL's automatic mode.
        XCTAssertEqual(YUVConversion(.unspecified, fullRange: false, height: 576), bt601)
        XCTAssertEqual(YUVConversion(.unspecified, fullRange: false, height: 720), YUVConversion(.bt709, fullRange: false, height: 720))
    }

    func testCornersTurnClockwiseAboutTheCentre() {
        let r = Rect(x: 10, y: 20, width: 40, height: 20)
        XCTAssertTrue(GLFrame.corners(r, rotation: 0).elementsEqual([(10, 20), (50, 20), (10, 40), (50, 40)], by: ==))
        // A quarter turn clockwise: the picture's top-left lands top-right of the turned shape.
        XCTAssertTrue(GLFrame.corners(r, rotation: 90).elementsEqual([(40, 10), (40, 50), (20, 10), (20, 50)], by: ==))
        XCTAssertTrue(GLFrame.corners(r, rotation: 180).elementsEqual([(50, 40), (10, 40), (50, 20), (10, 20)], by: ==))
        XCTAssertTrue(GLFrame.corners(r, rotation: -90).elementsEqual(GLFrame.corners(r, rotation: 270), by: ==))
    }

    func testQuadsAreInClipSpaceWithTheOverlaysTexelsOneToOne() {
        let q = GLFrame.quads(
            picture: GLFrame.corners(Rect(x: 0, y: 0, width: 100, height: 50), rotation: 0),
            ink: Rect(x: 50, y: 0, width: 50, height: 25), size: Size(width: 100, height: 50))
        XCTAssertEqual(q.count, 32)
        XCTAssertEqual(Array(q[0..<4]), [-1, 1, 0, 0], "top-left: clip (-1, 1), texel (0, 0)")
        XCTAssertEqual(Array(q[12..<16]), [1, -1, 1, 1], "bottom-right")
        XCTAssertEqual(Array(q[16..<20]), [0, 1, 0.5, 0], "the ink's top-left")
        XCTAssertEqual(Array(q[28..<32]), [1, 0, 1, 0.5], "the ink's bottom-right")
        XCTAssertEqual(GLFrame.quads(picture: [], ink: nil, size: Size(width: 10, height: 10)), [Float](repeating: 0, count: 32))
    }

    func testTheOverlayInkCoversWhatIsDrawnAndNoMore() {
        let size = Size(width: 640, height: 360)
        let layout = AdLayout(window: size, mode: .fullscreen, skipStyle: .text, picture: size)
        let skip = SkipButtonState(visible: true, enabled: true, text: "Skip 5", progress: 0)
        var scene = Scene(layout: layout, content: (size, 0), skip: skip, skipStyle: .text)
        let b = layout.skipButton
        XCTAssertEqual(GLOverlay.ink(scene, size: size), Rect(x: b.x - 2, y: b.y - 2, width: b.width + 4, height: b.height + 4))
        scene.skip = .hidden
        XCTAssertNil(GLOverlay.ink(scene, size: size), "nothing to draw")
        scene.opacity = 0.5
        XCTAssertEqual(GLOverlay.ink(scene, size: size), Rect(size: size), "a fade covers everything")
        scene.opacity = 1
        scene.caption = "Hello"
        XCTAssertEqual(GLOverlay.ink(scene, size: size), layout.overlayArea)
    }
}

extension GLPiecesTests {
    func testTheClearIsLeftOutOnlyWhenThePictureCoversTheViewport() {
        let size = Size(width: 640, height: 360)
        let full = GLFrame.corners(Rect(size: size), rotation: 0)
        XCTAssertTrue(GLFrame.covers(full, clip: Rect(size: size), size: size))
        XCTAssertFalse(
            GLFrame.covers(GLFrame.corners(Rect(x: 0, y: 20, width: 640, height: 320), rotation: 0), clip: Rect(size: size), size: size))
        XCTAssertFalse(GLFrame.covers(full, clip: Rect(x: 0, y: 0, width: 640, height: 240), size: size), "a logo band below")
        XCTAssertFalse(GLFrame.covers([], clip: Rect(size: size), size: size))
    }
}
