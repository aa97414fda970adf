import Foundation
import LaunchAdTestSupport
import XCTest

/// A test with a real nginx (`server`) and its own cache and state folders, removed after.
class ServerStateTestCase: XCTestCase {
    var server: AdServer!
    var cache: URL!
    var state: URL!

    override func setUpWithError() throws {
        server = try AdServer()
        let tmp = URL(fileURLWithPath: NSTemporaryDirectory())
        cache = tmp.appendingPathComponent("launchad-cache-\(UUID().uuidString)")
        state = tmp.appendingPathComponent("launchad-state-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        server = nil
        try? FileManager.default.removeItem(at: cache)
        try? FileManager.default.removeItem(at: state)
    }
}
