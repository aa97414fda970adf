import CXlib
import Foundation
import LaunchAdCore

/// A test's look at an X server's screen through its own Xlib connection: where a process's
/// window is, and the pixels shown there (XGetImage of the root window, as `ffmpeg -f x11grab`
/// reads it, without starting a process per frame). Owns the connection.
public final class XScreen {
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private let display: OpaquePointer
    private let root: Window
    private let pidAtom: Atom

    /// Connects to X display `name` (":N").
    public init(_ name: String) throws {
        guard let d = XOpenDisplay(name) else { throw Failed(description: "cannot open X display \(name)") }
        display = d
        root = XDefaultRootWindow(d)
        pidAtom = XInternAtom(d, "_NET_WM_PID", 0)
    }

    deinit { _ = XCloseDisplay(display) }

    /// The screen's size.
    public var size: Size {
        let s = XDefaultScreen(display)
        return Size(width: Int(XDisplayWidth(display, s)), height: Int(XDisplayHeight(display, s)))
    }

    /// The inside of the viewable window whose `_NET_WM_PID` is `pid` (a top-level window, or the
    /// client inside a window manager's frame), in root coordinates; nil when there is none.
    public func window(ofProcess pid: Int32) -> Rect? {
        _ = XSync(display, 0)
        for top in children(of: root) {
            for w in [top] + children(of: top) where self.pid(of: w) == pid {
                var attributes = XWindowAttributes()
                guard XGetWindowAttributes(display, w, &attributes) != 0, attributes.map_state == IsViewable else { continue }
                var x: Int32 = 0, y: Int32 = 0
                var child: Window = 0
                guard XTranslateCoordinates(display, w, root, 0, 0, &x, &y, &child) != 0 else { continue }
                return Rect(x: Int(x), y: Int(y), width: Int(attributes.width), height: Int(attributes.height))
            }
        }
        return nil
    }

    /// The RGB pixels shown in `rect` (root coordinates, inside the screen).
    public func grab(_ rect: Rect) throws -> RGBPicture {
        guard let image = XGetImage(display, root, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height), UInt.max, ZPixmap)
        else { throw Failed(description: "XGetImage of \(rect) failed") }
        defer { _ = launchad_x_destroy_image(image) }
        let i = image.pointee
        guard i.bits_per_pixel == 32, let data = i.data else {
            throw Failed(description: "a \(i.bits_per_pixel)-bit screen; the tests' Xvfb is 24-bit (32 bits a pixel)")
        }
        let shifts = [i.red_mask, i.green_mask, i.blue_mask].map { UInt32($0.trailingZeroBitCount) }
        var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * 3)
        let stride = Int(i.bytes_per_line)
        pixels.withUnsafeMutableBufferPointer { out in
            let raw = UnsafeRawPointer(data)
            for y in 0..<rect.height {
                let row = raw.advanced(by: y * stride)
                for x in 0..<rect.width {
                    let p = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    let o = (y * rect.width + x) * 3
                    out[o] = UInt8(truncatingIfNeeded: p >> shifts[0])
                    out[o + 1] = UInt8(truncatingIfNeeded: p >> shifts[1])
                    out[o + 2] = UInt8(truncatingIfNeeded: p >> shifts[2])
                }
            }
        }
        return RGBPicture(size: rect.size, pixels: pixels)
    }

    private func children(of window: Window) -> [Window] {
        var rootReturn: Window = 0, parent: Window = 0, count: UInt32 = 0
        var list: UnsafeMutablePointer<Window>?
        guard XQueryTree(display, window, &rootReturn, &parent, &list, &count) != 0, let list else { return [] }
        defer { _ = XFree(list) }
        return Array(UnsafeBufferPointer(start: list, count: Int(count)))
    }

    private func pid(of window: Window) -> Int32? {
        var type: Atom = 0, format: Int32 = 0, items: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let cardinal = Atom(6)  // XA_CARDINAL
        guard XGetWindowProperty(display, window, pidAtom, 0, 1, 0, cardinal, &type, &format, &items, &after, &data) == Success, let data
        else { return nil }
        defer { _ = XFree(data) }
        guard items == 1, format == 32 else { return nil }
        // 32-bit properties come back as C longs.
        return Int32(truncatingIfNeeded: data.withMemoryRebound(to: Int.self, capacity: 1) { $0.pointee })
    }
}

/// RGB pixels, three bytes each, row by row.
public struct RGBPicture: Sendable {
    /// Width and height.
    public let size: Size
    /// R, G, B for each pixel, left to right, top to bottom.
    public let pixels: [UInt8]

    /// The pixel at (x, y).
    public subscript(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let o = (y * size.width + x) * 3
        return (pixels[o], pixels[o + 1], pixels[o + 2])
    }
}
