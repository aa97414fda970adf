/// The report for machines: every rule with its measured value and limit, and the facts behind them.
extension ValidationReport {
    func jsonReport() -> JSONValue {
        .object([
            ("creatives", .array(creatives.map(\.json))),
            (
                "summary",
                .object([
                    ("creatives", .int(creatives.count)),
                    ("passed", .int(creatives.filter { $0.status == .pass }.count)),
                    ("warned", .int(creatives.filter { $0.status == .warn }.count)),
                    ("failed", .int(creatives.filter { $0.status == .fail }.count))
                ])
            )
        ])
    }
}

extension CreativeReport {
    var json: JSONValue {
        var o: [(String, JSONValue)] = [
            ("file", .string(file)), ("spec", .string(spec)), ("status", .string(status.rawValue)),
            (
                "counts",
                .object([
                    ("pass", .int(count(.pass))), ("warn", .int(count(.warn))), ("fail", .int(count(.fail))),
                    ("skip", .int(count(.skip)))
                ])
            ),
            ("rules", .array(results.map(\.json)))
        ]
        if let facts { o.append(("facts", .object([("probe", facts.probe.json), ("analysis", facts.analysis.json)]))) }
        return .object(o)
    }
}

extension RuleResult {
    var json: JSONValue {
        var o: [(String, JSONValue)] = [("rule", .string(rule)), ("status", .string(status.rawValue))]
        switch measured {
        case .value(let v): o.append(("measured", v.json))
        case .missing(let why): o += [("measured", .null), ("reason", .string(why))]
        }
        if !unit.isEmpty { o.append(("unit", .string(unit))) }
        o.append(("limit", .string(limit)))
        return .object(o)
    }
}
