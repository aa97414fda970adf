import LaunchAdCore
import XCTest

/// When the ad's last picture gives way to the `--then` app.
final class HandOffRuleTests: XCTestCase {
    /// The app's window counts when any process of its tree owns it, viewable.
    func testTheAppsProcessTreeOwnsTheWindow() {
        let parents: [Int32: Int32] = [100: 1, 101: 100, 102: 101, 200: 1]
        XCTAssertEqual(HandOff.descendants(of: 100, parents: parents), [100, 101, 102])
        XCTAssertTrue(HandOff.appWindowShown(appPID: 100, parents: parents, windows: [HandOff.Window(pid: 102, viewable: true)]))
        XCTAssertFalse(HandOff.appWindowShown(appPID: 100, parents: parents, windows: [HandOff.Window(pid: 102, viewable: false)]))
        XCTAssertFalse(
            HandOff.appWindowShown(
                appPID: 100, parents: parents,
                windows: [HandOff.Window(pid: 200, viewable: true), HandOff.Window(pid: nil, viewable: true)]))
    }

    /// An app that names no process on its windows (Tk, xmessage): a new viewable window naming
    /// no owner is taken for its own, one that was there before it started is not, nor one another process names.
    func testANewWindowNamingNoOwnerIsTheAppsWhenTheWindowsBeforeAreKnown() {
        let parents: [Int32: Int32] = [100: 1, 200: 1]
        let old = HandOff.Window(pid: nil, viewable: true, id: 7)
        let new = HandOff.Window(pid: nil, viewable: true, id: 9)
        XCTAssertTrue(HandOff.appWindowShown(appPID: 100, parents: parents, windows: [old, new], before: [7]))
        XCTAssertFalse(HandOff.appWindowShown(appPID: 100, parents: parents, windows: [old], before: [7]))
        XCTAssertFalse(
            HandOff.appWindowShown(appPID: 100, parents: parents, windows: [old, new]), "without the list before, only _NET_WM_PID")
        XCTAssertFalse(
            HandOff.appWindowShown(appPID: 100, parents: parents, windows: [HandOff.Window(pid: nil, viewable: false, id: 9)], before: [7]))
        XCTAssertFalse(
            HandOff.appWindowShown(appPID: 100, parents: parents, windows: [HandOff.Window(pid: 200, viewable: true, id: 9)], before: [7]),
            "another process's new window")
    }

    func testWhenTheHoldEnds() {
        // The app's window, once it has had the settle time to paint.
        XCTAssertNil(HandOff.ending(elapsedMs: 700, holdMs: 3000, appWindowAt: 600, watching: true, appExited: false))
        XCTAssertEqual(HandOff.ending(elapsedMs: 750, holdMs: 3000, appWindowAt: 600, watching: true, appExited: false), .appWindow)
        // Past the hold: watched but never seen, or not watchable at all.
        XCTAssertNil(HandOff.ending(elapsedMs: 2999, holdMs: 3000, appWindowAt: nil, watching: true, appExited: false))
        XCTAssertEqual(HandOff.ending(elapsedMs: 3000, holdMs: 3000, appWindowAt: nil, watching: true, appExited: false), .holdExpired)
        XCTAssertEqual(HandOff.ending(elapsedMs: 3000, holdMs: 3000, appWindowAt: nil, watching: false, appExited: false), .hold)
        // An app that ended will show no window.
        XCTAssertEqual(HandOff.ending(elapsedMs: 10, holdMs: 3000, appWindowAt: nil, watching: true, appExited: true), .appExited)
    }
}
