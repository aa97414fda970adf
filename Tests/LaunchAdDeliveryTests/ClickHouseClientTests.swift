import Foundation
import LaunchAdCore
import LaunchAdDelivery
import XCTest

/// `fleet report`'s client in process, against answers written here.
final class ClickHouseClientTests: XCTestCase {
    let url = "http://ch.example.com:8123/"
    var asked: String { url + "?wait_end_of_query=1" }
    let limits = FleetReport.Limits(since: 3600, silentAfter: 3600, maxSkew: 60)
    var budget: ParseBudget { ParseBudget(maxBytes: 1 << 20, seconds: 30, limitName: "--timeout") }

    /// Review 2 of issue 42: ClickHouse says an answer ended in an error where it says so — its
    /// `X-ClickHouse-Exception-Code` header, and a line of its own — not in a row's cell.
    func testAnExceptionIsWhereClickHouseWritesIt() throws {
        let net = FakeFetcher()
        let client = ClickHouseClient(url: url, fetcher: net, credentials: nil)
        net.set(asked, .body(200, Data(#"{"now":"1767312000","version":"Code: 1 Exception"}"#.utf8), [:]))
        XCTAssertEqual(try client.select("SELECT 1", within: budget), #"{"now":"1767312000","version":"Code: 1 Exception"}"#)
        net.set(asked, .body(200, Data(#"{"now":"1767312000"}"#.utf8), ["x-clickhouse-exception-code": "241"]))
        XCTAssertThrowsError(try client.select("SELECT 1", within: budget)) {
            XCTAssertEqual("\($0)", "HTTP 200 from \(self.url) with exception code 241: no reason given")
        }
    }

    /// Review 2 of issue 42: `--timeout` bounds the whole report — its four queries asked, read
    /// and made into the report — not each answer's reading apart (58 MB over 300 rows took 18 s
    /// with `--timeout 2`). Each request is abandoned once the report's deadline has passed.
    func testTheTimeoutBoundsTheWholeReport() throws {
        let net = FakeFetcher()
        net.set(asked, .body(200, Data(#"{"now":"1767312000","version":"24.1"}"#.utf8), [:]))
        var client = ClickHouseClient(url: url, fetcher: net, credentials: nil)
        XCTAssertNoThrow(try client.fleetReport(table: .standard, limits: limits))
        XCTAssertEqual(net.requests.count, 4)
        XCTAssertEqual(net.requests.map { $0.isCancelled?() }, [false, false, false, false], "asked within the deadline")
        client.timeout = 0
        XCTAssertThrowsError(try client.fleetReport(table: .standard, limits: limits)) {
            XCTAssertEqual("\($0)", "\(self.url): reading the answer took longer than --timeout")
        }
        XCTAssertEqual(net.requests.last?.isCancelled?(), true, "a transfer still running is abandoned")
        // A fetch abandoned at the deadline says so.
        net.set(asked, .fail(FetchError("cancelled: \(asked)", retryable: false)))
        XCTAssertThrowsError(try client.fleetReport(table: .standard, limits: limits)) {
            XCTAssertEqual("\($0)", "\(self.url): asking took longer than --timeout")
        }
    }
}
