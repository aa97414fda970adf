import LaunchAdCore
import XCTest

/// `outbox status` counts per server: a host's ports are different servers, a scheme's own port is no port.
final class ServerNameTests: XCTestCase {
    func testPortsKeepServersApart() {
        XCTAssertEqual(ServerName.of("https://collector.example.com:8443/plays"), "collector.example.com:8443")
        XCTAssertEqual(ServerName.of("https://collector.example.com:9443/plays"), "collector.example.com:9443")
        XCTAssertEqual(ServerName.of("http://127.0.0.1:8080/t?a=1"), "127.0.0.1:8080")
        XCTAssertEqual(ServerName.of("http://[::1]:8080/t"), "[::1]:8080")
    }

    func testTheSchemesOwnPortIsNoPort() {
        XCTAssertEqual(ServerName.of("https://Track.Example.com/imp"), "track.example.com")
        XCTAssertEqual(ServerName.of("https://track.example.com:443/imp"), "track.example.com")
        XCTAssertEqual(ServerName.of("http://track.example.com:80/imp"), "track.example.com")
        XCTAssertEqual(ServerName.of("http://track.example.com:443/imp"), "track.example.com:443")
        XCTAssertEqual(ServerName.of("not a url"), "?")
    }
}
