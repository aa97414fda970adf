import Foundation

/// What ClickHouse's HTTP answers mean. ClickHouse says what went wrong in the body
/// (`Code: 60, e.displayText() = DB::Exception: Table launchad.plays doesn't exist` on 18.16,
/// `Code: 60. DB::Exception: ...` on current releases), with an HTTP status that differs
/// between versions (18.16 answers an unknown setting with 404, a parse error with 500).
public enum ClickHouseAnswer {
    /// What became of one insert.
    public enum Insert: Equatable, Sendable {
        /// The server stored the batch.
        case stored
        /// The server does not know `insert_deduplication_token` (older than 22.2): send the
        /// same batch again at once without it, and never again to this server.
        case tokenUnsupported
        /// Not stored; `reason` is the outbox's one-line problem.
        case failed(DeliveryVerdict, reason: String)
    }

    /// The insert's verdict from its status and body. A 2xx whose body carries an exception (an
    /// error after the answer began) is not a delivery: tried again, and the table's key keeps
    /// a batch stored twice to one row per play. A 3xx is not followed (the credentials go to
    /// the URL given, nowhere else) and is tried again. A refusal of who asked rather than of
    /// what was sent (`isAboutCredentials`: 401, 403, a wrong key, an unknown user) is not the
    /// records' fault: they stay owed and are tried again with the backoff until `--beacon-ttl`
    /// (a key is put right on the screen, the server's users file is fixed). Other statuses as
    /// for any collector: 408, 429, 5xx again later; any other 4xx is final (the batch is
    /// dropped and counted).
    /// `exceptionCode`: the answer's `X-ClickHouse-Exception-Code` header, which ClickHouse sets
    /// on an answer that ends in an error.
    public static func insert(status: Int, body: String, exceptionCode: String? = nil) -> Insert {
        let problem = exception(in: body)
        if (200..<300).contains(status) {
            if let problem { return .failed(.retry, reason: "HTTP \(status) with an error: \(problem)") }
            guard let exceptionCode else { return .stored }
            return .failed(.retry, reason: "HTTP \(status) with exception code \(firstLine(exceptionCode) ?? "?")")
        }
        if let problem, isUnknownTokenSetting(problem) { return .tokenUnsupported }
        let reason = "HTTP \(status)" + (problem.map { ": \($0)" } ?? firstLine(body).map { ": \($0)" } ?? "")
        if (300..<400).contains(status) { return .failed(.retry, reason: reason + " (a redirect; not followed)") }
        if isAboutCredentials(status: status, problem: problem) {
            return .failed(.retry, reason: reason + " (the server refused the credentials; the records stay queued)")
        }
        return .failed(DeliveryRule.verdict(status: status), reason: reason)
    }

    /// ClickHouse's error codes about who asks: unknown user (192), wrong password (193),
    /// password required (194), address not allowed (195), access denied to a database (291)
    /// or to the statement (497), read-only user (164), authentication failed (516).
    static let credentialCodes: Set<Int> = [164, 192, 193, 194, 195, 291, 497, 516]

    /// Whether a refusal is about the request's credentials (401, 403, or one of
    /// `credentialCodes` whatever the status, as 18.16 and current releases map them
    /// differently) rather than about the records.
    static func isAboutCredentials(status: Int, problem: String?) -> Bool {
        if status == 401 || status == 403 { return true }
        guard let problem, problem.hasPrefix("Code: ") else { return false }
        let code = Checked.int(decimal: String(problem.dropFirst(6).prefix(while: { $0.isASCII && $0.isNumber })))
        return code.map(credentialCodes.contains) ?? false
    }

    /// ClickHouse's exception line in `body`, made safe for one line of a log or a terminal and
    /// cut to 300 characters; nil when there is none. Only where ClickHouse writes one: a line of
    /// its own (lines end at `\n` alone, as ClickHouse ends them) that starts `Code: N` and
    /// names an `Exception`. A row's cell holding the same words (`{"screen":"Code: 1
    /// Exception"}`, which an insert-only key can write) is not one.
    public static func exception(in body: String) -> String? {
        for line in body.utf8.split(separator: UInt8(ascii: "\n")) {
            if let problem = exceptionLine(Substring(line)) { return problem }
        }
        return nil
    }

    /// `line` when it is ClickHouse's exception line (`Code: N, e.displayText() = DB::Exception:
    /// ...` on 18.16, `Code: N. DB::Exception: ...` since), escaped and cut; else nil.
    static func exceptionLine(_ line: Substring) -> String? {
        let text = line.drop(while: { $0 == " " || $0 == "\t" })
        guard text.hasPrefix("Code: ") else { return nil }
        let digits = text.dropFirst(6).prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, text.contains("Exception") else { return nil }
        return firstLine(String(text))
    }

    /// Code 115 (unknown setting) naming the token: 18.16's `Unknown setting insert_deduplication_token`,
    /// or a later release's `Setting insert_deduplication_token is neither a builtin setting...`.
    static func isUnknownTokenSetting(_ line: String) -> Bool {
        (line.hasPrefix("Code: 115,") || line.hasPrefix("Code: 115.")) && line.contains("insert_deduplication_token")
    }

    /// The first non-empty line, escaped for a terminal, at most 300 characters.
    static func firstLine(_ text: String) -> String? {
        guard let line = text.split(whereSeparator: \.isNewline).first.map(String.init)?.trimmingCharacters(in: .whitespaces),
            !line.isEmpty
        else { return nil }
        let escaped = TerminalText.escaped(line)
        return escaped.count > 300 ? String(escaped.prefix(300)) + "…" : escaped
    }
}

/// The rows of a `FORMAT JSONEachRow` answer, read strictly: each line one JSON object, at
/// most `maxRows` of them. 64-bit integers arrive quoted (ClickHouse's default, and a read-only
/// user may not change it), so numbers are read from numbers or numeric strings alike.
public struct ClickHouseRows: Sendable {
    /// One row: its fields as text or numbers.
    public struct Row: Sendable {
        fileprivate let fields: [String: Field]

        /// A field's whole number: a JSON integer or a string of digits (a quoted UInt64),
        /// through `Checked` like every number a document chose: nil for anything else and for
        /// a number past ±2^53 (`Checked.limit`), so that what the report adds and subtracts
        /// stays far from the integer limits. The only way a number leaves an answer.
        public func int(_ name: String) -> Int? {
            switch fields[name] {
            case .number(let d)?: return d == d.rounded() ? Checked.int(d) : nil
            case .text(let s)?: return Checked.int(decimal: s)
            default: return nil
            }
        }

        /// A field's text; nil for null, numbers and anything else.
        public func text(_ name: String) -> String? {
            if case .text(let s)? = fields[name] { return s }
            return nil
        }
    }

    fileprivate enum Field: Sendable { case text(String), number(Double), other }

    /// The rows, in the order ClickHouse sent them.
    public let rows: [Row]

    /// Why an answer could not be read.
    public struct Unreadable: Error, Equatable, CustomStringConvertible {
        /// One line, safe for a terminal.
        public let description: String
    }

    /// Reads `text` within `budget` (its bytes, and its deadline looked at every row: 300 rows of
    /// 200 KB took 18 s against a 2 s `--timeout` when it was looked at every 1,000);
    /// throws a one-line reason for ClickHouse's exception line (one that is not a row), a line
    /// that is not a JSON object, more than `maxRows` rows, or a spent budget. Rows end at `\n`
    /// alone, as ClickHouse's JSON writer ends them: it leaves U+0085 (NEL), U+2028 and U+2029 raw
    /// inside a string, and a cell holding one is one row, not two broken ones.
    public init(_ text: String, maxRows: Int, budget: ParseBudget) throws {
        do { try budget.check(bytes: text.utf8.count, what: "the answer") } catch { throw Unreadable(description: error.message) }
        var rows: [Row] = []
        let blank: Set<UInt8> = [0x20, 0x09, 0x0D]
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) where !line.allSatisfy(blank.contains) {
            guard rows.count < maxRows else { throw Unreadable(description: "more than \(maxRows) rows in one answer") }
            do { try budget.checkTime(what: "the answer") } catch { throw Unreadable(description: error.message) }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed])) as? [String: Any]
            else {
                if let problem = ClickHouseAnswer.exceptionLine(Substring(line)) {
                    throw Unreadable(description: "ClickHouse reported an error: \(problem)")
                }
                throw Unreadable(description: "not a JSON row: \(ClickHouseAnswer.firstLine(String(Substring(line).prefix(200))) ?? "")")
            }
            var fields: [String: Field] = [:]
            for (key, value) in object {
                if let s = value as? String {
                    fields[key] = .text(s)
                } else if let n = value as? NSNumber {
                    fields[key] = .number(n.doubleValue)
                } else {
                    fields[key] = .other
                }
            }
            rows.append(Row(fields: fields))
        }
        self.rows = rows
    }
}
