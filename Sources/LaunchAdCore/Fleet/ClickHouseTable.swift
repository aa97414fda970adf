/// A ClickHouse table named `database.table`. A manifest names it too, so it is hostile until
/// checked: each part is a plain identifier (a letter or `_`, then letters, digits or `_`, at
/// most 64 characters), and the SQL quotes it in backticks all the same.
public struct ClickHouseTable: Equatable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The database's name.
    public let database: String
    /// The table's name inside the database.
    public let name: String

    /// `launchad.plays`, what `launchad fleet schema` creates.
    public static let standard = ClickHouseTable(checkedDatabase: "launchad", name: "plays")

    /// What a table name must look like, for error lines.
    public static let rule = "database.table, each a letter or _ then letters, digits or _ (at most 64)"

    /// The table named by `text` (`db.table`), or nil when it is not two plain identifiers.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, parts.allSatisfy(ClickHouseTable.isIdentifier) else { return nil }
        database = parts[0]
        name = parts[1]
    }

    private init(checkedDatabase: String, name: String) {
        self.database = checkedDatabase
        self.name = name
    }

    /// A letter or underscore, then letters, digits or underscores; ASCII only, 1 to 64 characters.
    public static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, s.unicodeScalars.count <= 64 else { return false }
        let letter = { (u: Unicode.Scalar) in (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || u == "_" }
        return letter(first) && s.unicodeScalars.allSatisfy { letter($0) || ($0 >= "0" && $0 <= "9") }
    }

    /// `database.table` as written on a command line or in a manifest.
    public var description: String { "\(database).\(name)" }

    /// The table in SQL: each name quoted with backticks, as database.table.
    public var sql: String { "`\(database)`.`\(name)`" }

    /// The database in SQL.
    public var databaseSQL: String { "`\(database)`" }

    /// A view beside the table, named after it (`plays` → `plays_per_ad_day`); nil past 64 characters.
    public func sibling(_ suffix: String) -> ClickHouseTable? { ClickHouseTable("\(database).\(name)_\(suffix)") }

    /// Read back from the cache index: checked again, as when it came from the manifest.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let table = ClickHouseTable(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not \(ClickHouseTable.rule)"))
        }
        self = table
    }

    /// Written as `database.table`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
