/// A key given twice in one JSON object (`{"version": 1, "version": 9}`): JSON leaves its meaning
/// open, and readers differ — launchad's decoder keeps the first, `jq` and most tools the last —
/// so the document an operator reviewed and signed could say one thing to them and another to
/// the screen. A signed manifest holding one is refused (`malformed`, through `SignedFields`);
/// an unsigned one is read as before (the first is kept), since without `--trust-key` nothing
/// changes for fleets that do not sign.
enum JSONDuplicateKeys {
    /// The first key given twice in one object of `data` (JSON the decoder has already taken),
    /// as a line naming it and where; nil when there is none. One pass, linear in the bytes;
    /// keys compared as launchad's decoder compares them (decoded, canonically equivalent
    /// strings are one key), so every pair it would merge is found.
    static func first(in data: [UInt8]) -> String? {
        enum Frame {
            case object(keys: Set<String>, expectingKey: Bool, key: String?, path: String)
            case array(index: Int, path: String)
        }
        var stack: [Frame] = []
        var i = 0
        // Where a value now being opened sits, for the message.
        func childPath() -> String {
            switch stack.last {
            case .object(_, _, let key, let path)?: return path.isEmpty ? (key ?? "") : "\(path).\(key ?? "")"
            case .array(let index, let path)?: return "\(path)[\(index)]"
            case nil: return ""
            }
        }
        while i < data.count {
            switch data[i] {
            case UInt8(ascii: "{"):
                stack.append(.object(keys: [], expectingKey: true, key: nil, path: childPath()))
                i += 1
            case UInt8(ascii: "["):
                stack.append(.array(index: 0, path: childPath()))
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                stack.removeLast()
                i += 1
            case UInt8(ascii: ","):
                switch stack.last {
                case .object(let keys, _, let key, let path)?:
                    stack[stack.count - 1] = .object(keys: keys, expectingKey: true, key: key, path: path)
                case .array(let index, let path)?: stack[stack.count - 1] = .array(index: index + 1, path: path)
                case nil: break
                }
                i += 1
            case UInt8(ascii: "\""):
                let (text, end) = string(data, from: i)
                i = end
                guard case .object(var keys, true, _, let path)? = stack.last else { continue }
                guard keys.insert(text).inserted else {
                    let place = path.isEmpty ? "at the manifest's top level" : "in \(TerminalText.quoted(path))"
                    return "the key \"\(TerminalText.quoted(text))\" is given twice \(place) (readers differ on which one counts)"
                }
                stack[stack.count - 1] = .object(keys: keys, expectingKey: false, key: text, path: path)
            default:
                i += 1
            }
        }
        return nil
    }

    /// The string whose opening quote is at `start`, its escapes decoded, and the index after
    /// its closing quote.
    private static func string(_ data: [UInt8], from start: Int) -> (String, Int) {
        var scalars = String.UnicodeScalarView()
        var bytes: [UInt8] = []
        var i = start + 1
        func flush() {
            scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
            bytes.removeAll(keepingCapacity: true)
        }
        var pendingHigh: UInt32?
        while i < data.count, data[i] != UInt8(ascii: "\"") {
            guard data[i] == UInt8(ascii: "\\"), i + 1 < data.count else {
                bytes.append(data[i])
                i += 1
                continue
            }
            flush()
            let escape = data[i + 1]
            i += 2
            switch escape {
            case UInt8(ascii: "u"):
                let hex = String(decoding: data[min(i, data.count)..<min(i + 4, data.count)], as: UTF8.self)
                i += 4
                guard let unit = UInt32(hex, radix: 16) else { continue }
                if (0xD800...0xDBFF).contains(unit) {
                    pendingHigh = unit
                    continue
                }
                if let high = pendingHigh, (0xDC00...0xDFFF).contains(unit) {
                    pendingHigh = nil
                    if let s = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)) { scalars.append(s) }
                    continue
                }
                pendingHigh = nil
                scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            default: scalars.append(Unicode.Scalar(escape))
            }
        }
        flush()
        return (String(scalars), i + 1)
    }
}
