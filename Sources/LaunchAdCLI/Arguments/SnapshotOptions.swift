import LaunchAdCore
import LaunchAdEngine

/// `launchad snapshot`'s command line.
extension SnapshotOptions {
    public static let help = """
        usage: launchad snapshot FILE --out sheet.png [--count N | --at SECONDS]
        Writes a PNG contact sheet of N evenly spaced frames, each labelled with its time, or with
        --at one frame at full size.
          --out FILE.png         where to write the PNG (required)
          --count N              frames on the sheet, 1 to 100 (default 12)
          --at SECONDS           one frame at full size: the picture on screen at SECONDS
                                 (the last one stamped at or before it)
          --width W              width of each picture on the sheet, 32 to 1920 (default 320)
          --columns C            pictures per row, 1 to 20 (default: about square)
        Exit codes: 0 written, 1 the file cannot be read or has no video, 2 usage (an --out that
        cannot be written included).
        """

    public static func parse(_ args: [String]) throws -> SnapshotOptions? {
        var r = ArgumentReader(args)
        var o = SnapshotOptions()
        var countGiven = false
        while let opt = r.nextOption() {
            switch opt {
            case "--help": return nil
            case "--out": o.out = try r.value(for: opt)
            case "--count": o.count = try r.int(for: opt, min: 1, max: 100); countGiven = true
            case "--at": o.at = try r.double(for: opt, max: 86_400)
            case "--width": o.tileWidth = try r.int(for: opt, min: 32, max: 1920)
            case "--columns": o.columns = try r.int(for: opt, min: 1, max: 20)
            default: throw UsageError("unknown option \(opt) (see launchad snapshot --help)")
            }
        }
        guard r.positionals.count == 1 else {
            throw UsageError(r.positionals.isEmpty ? "snapshot needs a FILE" : "snapshot takes one FILE, got \(r.positionals.count)")
        }
        o.file = r.positionals[0]
        if o.out.isEmpty { throw UsageError("snapshot needs --out FILE.png") }
        if countGiven && o.at != nil { throw UsageError("--count and --at cannot be used together") }
        return o
    }
}
