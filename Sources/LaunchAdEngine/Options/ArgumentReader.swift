import LaunchAdCore

/// Walks a subcommand's arguments: `--flag`, `--name VALUE`, `--name=VALUE`, and positionals.
/// Each subcommand's parser drives it and turns what it reads into typed options.
public struct ArgumentReader {
    private var args: [String]
    private var index = 0
    private var pendingValue: String?
    public private(set) var positionals: [String] = []
    private var given: [String: String] = [:]

    public init(_ args: [String]) { self.args = args }

    /// The next option name (`--x`), collecting positionals on the way; nil at the end.
    /// After `--`, everything is positional.
    public mutating func nextOption() -> String? {
        while index < args.count {
            let arg = args[index]
            index += 1
            if arg == "--" {
                positionals += args[index...]
                index = args.count
                return nil
            }
            if arg.hasPrefix("--"), arg.count > 2 {
                if let eq = arg.firstIndex(of: "=") {
                    pendingValue = String(arg[arg.index(after: eq)...])
                    return String(arg[..<eq])
                }
                pendingValue = nil
                return arg
            }
            if arg == "-h" { pendingValue = nil; return "--help" }
            positionals.append(arg)
        }
        return nil
    }

    /// Everything left, unparsed (for `--then CMD ARGS...`).
    public mutating func rest() -> [String] {
        defer { index = args.count }
        return Array(args[index...])
    }

    public mutating func value(for option: String) throws -> String {
        if let v = pendingValue { pendingValue = nil; return v }
        // `--events --mute` is a missing value, not an events file named "--mute"
        // (a value that starts with "--" can still be given as `--name=--value`).
        guard index < args.count, !ArgumentReader.looksLikeOption(args[index]) else {
            throw UsageError("\(option) needs a value")
        }
        index += 1
        return args[index - 1]
    }

    /// A value for an option that may be repeated only with the same value (`--rotate 90 --rotate 90`).
    public mutating func consistentValue(for option: String) throws -> String {
        let v = try value(for: option)
        if let earlier = given[option], earlier != v {
            throw UsageError("\(option) given twice with different values ('\(earlier)' and '\(v)')")
        }
        given[option] = v
        return v
    }

    /// `--rotate`: 0, 90, 180 or 270, the same each time it is given.
    public mutating func rotation(for option: String) throws -> ScreenRotation {
        let raw = try consistentValue(for: option)
        guard let v = Int(raw).flatMap(ScreenRotation.init(rawValue:)) else {
            throw UsageError("\(option) takes 0, 90, 180 or 270 (degrees clockwise), not '\(raw)'")
        }
        return v
    }

    public mutating func double(for option: String, min: Double = 0, max: Double = .greatestFiniteMagnitude) throws -> Double {
        let raw = try value(for: option)
        guard let v = Double(raw), v.isFinite, v >= min, v <= max else {
            throw UsageError("\(option) takes a number from \(NumberText.plain(min)) to \(NumberText.plain(max)), not '\(raw)'")
        }
        return v
    }

    public mutating func int(for option: String, min: Int = 0, max: Int = Int.max) throws -> Int {
        let raw = try value(for: option)
        guard let v = Int(raw), v >= min, v <= max else {
            throw UsageError("\(option) takes a whole number from \(min) to \(max), not '\(raw)'")
        }
        return v
    }

    public mutating func choice<T: RawRepresentable>(for option: String, _ type: T.Type) throws -> T
    where T: CaseIterable, T.RawValue == String {
        let raw = try value(for: option)
        guard let v = T(rawValue: raw) else {
            let all = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("\(option) takes one of \(all), not '\(raw)'")
        }
        return v
    }

    /// Rejects a value given to a flag that takes none (`--mute=yes`).
    public mutating func flag(_ option: String) throws {
        if pendingValue != nil { throw UsageError("\(option) takes no value") }
    }

    static func looksLikeOption(_ arg: String) -> Bool { arg.hasPrefix("--") && arg.count > 2 }
}
