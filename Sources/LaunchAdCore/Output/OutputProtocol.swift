/// Where launchad writes text that may have come from a file or a server, and the one escaper
/// each takes (issue 29, class fix 3). Text from outside reaches a line protocol only through
/// its escaper: `OutputEscapingTests` reads the sources for writers that go around them.
public enum OutputProtocol: String, CaseIterable, Sendable {
    /// Text reports, progress, schedule answers and every stderr line (`TerminalText.line`).
    case terminal
    /// sd_notify(3) datagrams: built only as `NotifyMessage`, whose `status(_:)` escapes.
    case sdNotify
    /// The `--metrics` textfile's label values.
    case prometheus
    /// Event lines, play records, JSON reports and ClickHouse rows.
    case json
    /// The HTML report and JUnit XML.
    case markup

    /// The type that escapes for it, in `Sources/LaunchAdCore/Output/`.
    public var escaper: String {
        switch self {
        case .terminal: return "TerminalText"
        case .sdNotify: return "NotifyMessage"
        case .prometheus: return "PrometheusText"
        case .json: return "JSONText"
        case .markup: return "MarkupText"
        }
    }
}
