import Foundation

/// How a play record goes to its collector, decided in one place for every record (`play`,
/// `launch`, each ad of a VAST run): for ClickHouse, into which table and with whose
/// credentials; or refused in one line, the ad playing without a record.
public enum CollectorRule {
    /// What becomes of the records for one collector.
    public enum Decision: Equatable, Sendable {
        /// Queued for `target`; a ClickHouse record with the credentials `credentials` allows (nil: none).
        case send(ReportTarget, credentials: CredentialBinding?)
        /// Not queued: why, in one line.
        case refused(String)
    }

    /// `target`, named on the command line (`--report`) or by a manifest. A ClickHouse record
    /// goes into the screen's table: `--report-table` (`table`), else `launchad.plays`. A manifest
    /// may not choose the table its records (and the screen's key) go into: a `report.table`
    /// that differs from the screen's is refused; one that is the same, or none, is taken. Then
    /// the credentials (`ClickHouseAuth.use`): a manifest's collector gets only credentials tied
    /// to its own server.
    public static func decide(_ target: ReportTarget, namedOnCommandLine: Bool, table: ClickHouseTable?, auth: ClickHouseAuth) -> Decision {
        guard target.clickHouse != nil else { return .send(target, credentials: nil) }
        var target = target
        if !namedOnCommandLine {
            let screens = table ?? .standard
            if let asked = target.manifestTable, asked != screens {
                return .refused(
                    "the manifest's report.table \(asked) is not \(screens), the table this screen inserts into "
                        + "(--report-table); a manifest may not choose it")
            }
            target.clickHouse = screens
        }
        switch auth.use(for: target.url, namedOnCommandLine: namedOnCommandLine) {
        case .plain: return .send(target, credentials: nil)
        case .withCredentials(let binding): return .send(target, credentials: binding)
        case .refused(let why): return .refused(why)
        }
    }
}

/// The URLs records and queries go to with credentials: `--report`, a manifest's `report.url`,
/// `fleet report --clickhouse`.
public enum CollectorURL {
    /// Why `url` is refused for holding a user or a password of its own (`http://user:pw@host/`),
    /// in one line that never repeats the URL; nil when it holds none. Userinfo would be a
    /// second way to pass credentials, beside the file the rules hold (`--clickhouse-credentials`:
    /// mode 600, tied to its server), and it was printed, password and all, in error lines.
    public static func userinfoRefusal(_ url: String) -> String? {
        let authority = url.range(of: "://").map { url[$0.upperBound...].prefix { !"/?#".contains($0) } } ?? ""
        let parsed = URL(string: url)
        guard authority.contains("@") || parsed?.user != nil || parsed?.password != nil else { return nil }
        return "a collector's or ClickHouse server's URL may not hold a user or password (user:password@host); "
            + "give them in --clickhouse-credentials FILE"
    }
}
