import Foundation
import LaunchAdCore
import LaunchAdDelivery
import XCTest

/// `fleet report`'s client in process, against answers written here.
final class ClickHouseClientTests: XCTestCase {
    let url = "http://ch.example.com:8123/"
    var asked: String { url + "?wait_end_of_query=1" }
    let limits = FleetReport.Limits(since: 3600, silentAfter: 3600, maxSkew: 60)

    /// Review 2 of issue 42: ClickHouse says an answer ended in an error where it says so — its
    /// `X-ClickHouse-Exception-Code` header, and a line of its own — not in a row's cell.
    func testAnExceptionIsWhereClickHouseWritesIt() throws {
        let net = FakeFetcher()
        let client = ClickHouseClient(url: url, fetcher: net, credentials: nil)
        net.set(asked, .body(200, Data(#"{"now":"1767312000","version":"Code: 1 Exception"}"#.utf8), [:]))
        XCTAssertEqual(try client.select("SELECT 1"), #"{"now":"1767312000","version":"Code: 1 Exception"}"#)
        net.set(asked, .body(200, Data(#"{"now":"1767312000"}"#.utf8), ["x-clickhouse-exception-code": "241"]))
        XCTAssertThrowsError(try client.select("SELECT 1")) {
            XCTAssertEqual("\($0)", "HTTP 200 from \(self.url) with exception code 241: no reason given")
        }
    }
}
