/// What `launchad snapshot` is told: a contact sheet of N frames, or one frame at a time.
public struct SnapshotOptions: Equatable, Sendable {
    public var file: String = ""
    public var out: String = ""
    public var count = 12
    public var at: Double?
    /// Width of each picture on the sheet; the height follows the display aspect.
    public var tileWidth = 320
    public var columns: Int?

    public init() {}

    /// Columns for the sheet: as given, else the smallest that keeps it no taller than wide in tiles.
    public var gridColumns: Int {
        if let columns { return min(columns, count) }
        var c = 1
        while c * c < count { c += 1 }
        return c
    }

    public var gridRows: Int { (count + gridColumns - 1) / gridColumns }
}
