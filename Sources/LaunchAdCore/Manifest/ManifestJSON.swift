import Foundation

/// Any JSON value, decoded strictly (a boolean is never a number), so the manifest parser can
/// report exactly which field is wrong instead of one opaque decoding error.
enum ManifestJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ManifestJSON])
    case object([String: ManifestJSON])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([ManifestJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: ManifestJSON].self))
        }
    }

    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
