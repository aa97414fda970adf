import Foundation
import LaunchAdTestSupport
import XCTest

/// The hostile corpus under weston (Wayland, pixman, no GPU): every file still ends with exactly
/// one `end`, the outcome the headless run gives, and its exit code. Timing is left to the
/// headless test: a real compositor on a loaded machine is slower.
extension HostileCorpusTests {
    func testTheWholeCorpusEndsOnceUnderWeston() throws {
        let weston: Compositor
        do { weston = try Compositor.westonWithSeat() } catch let e as Compositor.Missing { throw XCTSkip(e.description) }
        for (name, run) in try playAll(environment: weston.environment) {
            guard let expect = Self.expected[name] else { continue }
            assertDefinedEnd(run, name)
            let outcome = run.events(named: "end").first?["outcome"] as? String
            switch expect {
            case .noAd:
                XCTAssertEqual(outcome, "no_ad", "\(name): \(run.stdout)")
            case .playsPart:
                // A file cut short completes only if it showed (nearly) its declared length.
                let truncated = outcome == "error" && run.events(named: "error").first?["code"] as? String == "media_truncated"
                XCTAssertTrue(outcome == "completed" || truncated, "\(name): \(run.stdout)")
                XCTAssertEqual(run.events(named: "window").first?["video_driver"] as? String, "wayland", name)
            default:
                XCTAssertEqual(outcome, "completed", "\(name): \(run.stdout)")
                XCTAssertEqual(run.events(named: "window").first?["video_driver"] as? String, "wayland", name)
            }
        }
    }
}
