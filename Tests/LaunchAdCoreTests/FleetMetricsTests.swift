import Foundation
import LaunchAdCore
import XCTest

/// The Prometheus text a run leaves: counters carried on from the previous file, label values
/// escaped, gauges of the state at write time; the manifest's `metrics` field only from a local file.
final class FleetMetricsTests: XCTestCase {
    func testCountersCarryOnAndLabelsAreEscaped() {
        var run = PlayMetrics(adID: "")
        run.observe(AdEvent(.cacheHit(id: "say \"hi\"\\\n", sha256: "ab", file: "/c/ab"), tMs: 5))
        run.observe(AdEvent(.firstFrame(fallback: false), tMs: 420))
        run.observe(AdEvent(.end(RunEnd(outcome: .skipped, shownMs: 4500, frames: FrameCounter.counted(shown: 30, dropped: 2))), tMs: 5000))
        var m = FleetMetrics(version: "9", now: Date(timeIntervalSince1970: 1_800_000_000))
        m.run = run
        m.lastPrefetch = Date(timeIntervalSince1970: 1_799_999_400)
        let previous = """
            # TYPE launchad_plays_total counter
            launchad_plays_total{ad="say \\"hi\\"\\\\\\n",outcome="skipped"} 4
            launchad_plays_total{ad="old",outcome="completed"} 7
            launchad_frames_shown_total 100
            launchad_cache_bytes 12345
            """
        let text = m.text(previous: previous)
        XCTAssertTrue(text.contains(#"launchad_plays_total{ad="say \"hi\"\\\n",outcome="skipped"} 5"# + "\n"), text)
        XCTAssertTrue(text.contains(#"launchad_plays_total{ad="old",outcome="completed"} 7"# + "\n"), text)
        XCTAssertTrue(text.contains("\nlaunchad_frames_shown_total 130\n"), text)
        XCTAssertTrue(text.contains("\nlaunchad_frames_dropped_total 2\n"), text)
        XCTAssertTrue(text.contains("launchad_first_frame_seconds 0.42\n"), text)
        XCTAssertTrue(text.contains("launchad_prefetch_last_success_age_seconds 600\n"), text)
        XCTAssertFalse(text.contains("launchad_cache_bytes"), "a gauge is the state now, never carried over")
    }

    /// Issue 40: each `manifest_rejected` is counted by reason and carried on; with a verified
    /// manifest in the cache, every reason is written from zero, with its version and expiry.
    func testRefusedManifestsAreCountedByReason() {
        var run = PlayMetrics(adID: "")
        for reason in [ManifestRejection.badSignature, .badSignature, .rollback] {
            run.observe(AdEvent(.manifestRejected(ManifestRefusal(reason, "m"), manifest: "https://a.example/m.json"), tMs: 1))
        }
        var m = FleetMetrics(version: "9", now: Date(timeIntervalSince1970: 1_800_000_000))
        m.run = run
        let previous = #"launchad_manifest_rejected_total{reason="bad_signature"} 3"# + "\n"
        let unsigned = m.text(previous: previous)
        XCTAssertTrue(unsigned.contains("# TYPE launchad_manifest_rejected_total counter\n"), unsigned)
        XCTAssertTrue(unsigned.contains(#"launchad_manifest_rejected_total{reason="bad_signature"} 5"# + "\n"), unsigned)
        XCTAssertTrue(unsigned.contains(#"launchad_manifest_rejected_total{reason="rollback"} 1"# + "\n"), unsigned)
        XCTAssertFalse(unsigned.contains("expired"), "no series for what never happened while nothing is verified")
        XCTAssertFalse(unsigned.contains("launchad_plays_total"), "a run without an outcome (prefetch) counts no play")
        m.signedManifest = ManifestSignatureRecord(
            keyID: "1BC5D94E37A6DE83", version: 7, sha256: "aa", expires: Date(timeIntervalSince1970: 1_800_003_600))
        let signed = m.text(previous: nil)
        for reason in ManifestRejection.allCases where ![.badSignature, .rollback].contains(reason) {
            XCTAssertTrue(signed.contains(#"launchad_manifest_rejected_total{reason="\#(reason.rawValue)"} 0"# + "\n"), reason.rawValue)
        }
        XCTAssertTrue(signed.contains("\nlaunchad_manifest_version 7\n"), signed)
        XCTAssertTrue(signed.contains("\nlaunchad_manifest_expires_timestamp_seconds 1800003600\n"), signed)
        XCTAssertEqual(FleetMetrics(version: "9", now: Date()).text(previous: nil).contains("manifest"), false, "signing off: as before")
    }

    func testOnlyALocalManifestNamesTheMetricsFile() throws {
        let json = Data(#"{"metrics": "/var/lib/prometheus/node-exporter/launchad.prom", "ads": []}"#.utf8)
        XCTAssertEqual(
            try ManifestParser.parse(
                json, base: URL(fileURLWithPath: "/etc/launchad/m.json"), budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5)
            ).manifest.metrics,
            "/var/lib/prometheus/node-exporter/launchad.prom")
        let remote = try ManifestParser.parse(
            json, base: URL(string: "https://ads.example.com/m.json")!, budget: ManifestParser.budget(maxBytes: 1_000_000, seconds: 5))
        XCTAssertNil(remote.manifest.metrics)
        XCTAssertEqual(
            remote.rejected,
            [RejectedAd(id: "metrics", reason: "only a local manifest may name the metrics file; none is written", field: "metrics")])
    }
}
