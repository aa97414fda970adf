/// What `launchad snapshot` is told: a contact sheet of N frames, or one frame at a time.
public struct SnapshotOptions: Equatable, Sendable {
    /// The video to take frames from.
    public var file: String = ""
    /// `--out`: the PNG to write.
    public var out: String = ""
    /// `--count`: frames on the sheet, evenly spaced.
    public var count = 12
    /// `--at`: seconds into the video for a single full-size frame instead of a sheet.
    public var at: Double?
    /// Width of each picture on the sheet; the height follows the display aspect.
    public var tileWidth = 320
    /// `--columns`: pictures per row; nil makes the sheet about square.
    public var columns: Int?

    /// Defaults: 12 frames 320 pixels wide, written nowhere until `file` and `out` are set.
    public init() {}

    /// Columns for the sheet: as given, else the smallest that keeps it no taller than wide in tiles.
    public var gridColumns: Int {
        if let columns { return min(columns, count) }
        var c = 1
        while c * c < count { c += 1 }
        return c
    }

    /// Rows the sheet needs for `count` frames in `gridColumns` columns.
    public var gridRows: Int { (count + gridColumns - 1) / gridColumns }
}
