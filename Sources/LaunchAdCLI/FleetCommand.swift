import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

/// `launchad fleet schema|report`: the ClickHouse DDL for play records, and the fleet's report
/// read back from the table.
public enum FleetCommand {
    public static func run(_ o: FleetOptions) -> Int32 {
        switch o.action {
        case .schema:
            print(FleetSchema.script(o.table), terminator: "")
            return ExitCode.success
        case .report:
            return report(o)
        }
    }

    static func report(_ o: FleetOptions) -> Int32 {
        guard let url = o.clickhouse else { return ExitCode.usage }
        let credentials: ClickHouseCredentials?
        switch ClickHouseCredentialsSource.load(file: o.credentials) {
        case .none: credentials = nil
        case .credentials(let c): credentials = c
        case .unusable(let why): return fail("ClickHouse credentials: \(why)")
        }
        // The file is made before ClickHouse is asked, so a path that cannot be written fails at once.
        let file: ReportFile?
        do { file = try o.out.map { try ReportFile($0, option: "--out") } } catch { return CLIError.report(error) }
        var client = ClickHouseClient(
            url: url,
            fetcher: HTTPClient(connectTimeout: min(10, o.timeout), totalTimeout: o.timeout, maxRedirects: 0, allowHTTP: o.allowHTTP),
            credentials: credentials)
        client.timeout = o.timeout
        let report: FleetReport
        do {
            report = try client.fleetReport(
                table: o.table, limits: FleetReport.Limits(since: o.since, silentAfter: o.silentAfter, maxSkew: o.maxSkew))
        } catch {
            return fail("\(error)")
        }
        let text: String
        switch o.format {
        case .text: text = report.text
        case .json: text = report.json.serialized() + "\n"
        case .html: text = report.html
        }
        guard let file else {
            print(text, terminator: "")
            return ExitCode.success
        }
        do { try file.commit(text) } catch { return CLIError.report(error) }
        return ExitCode.success
    }

    private static func fail(_ line: String) -> Int32 {
        FileHandle.standardError.write(TerminalText.line(line))
        return ExitCode.failure
    }
}
