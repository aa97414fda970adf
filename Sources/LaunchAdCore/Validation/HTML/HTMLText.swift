import Foundation

/// Numbers, times and pictures as the HTML report writes them (text goes through MarkupText).
enum HTML {
    /// A coordinate or data value in SVG: one decimal is finer than a screen pixel.
    static func num(_ d: Double) -> String {
        let s = String(format: "%.1f", d)
        return s == "-0.0" ? "0.0" : s
    }

    /// A time as a reader reads it: 0:07.5, 1:02.0.
    static func clock(_ seconds: Double) -> String {
        guard let tenths = Checked.rounded(max(0, seconds) * 10) else { return "?" }
        return String(format: "%d:%02d.%d", tenths / 600, tenths / 10 % 60, tenths % 10)
    }

    /// An inline picture: the PNG bytes as a data: URI, so the page needs no other file.
    static func dataURI(png: [UInt8]) -> String { "data:image/png;base64," + Data(png).base64EncodedString() }
}
