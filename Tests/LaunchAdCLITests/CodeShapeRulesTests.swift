import Foundation
import LaunchAdTestSupport
import XCTest

/// Issue 31's shape rules, read off the sources so that they cannot creep back: one lock type
/// (`Locked`, which can also wait), `@unchecked Sendable` only where a C or OS object is owned,
/// and files small enough to read.
final class CodeShapeRulesTests: XCTestCase {
    private func sources() throws -> [(path: String, text: String)] {
        let root = Fixtures.repoRoot.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        XCTAssertGreaterThan(files.count, 100, "the sources were found")
        return try files.map {
            ($0.path.replacingOccurrences(of: Fixtures.repoRoot.path + "/", with: ""), try String(contentsOf: $0, encoding: .utf8))
        }.sorted { $0.path < $1.path }
    }

    /// Lines that are code, not comments.
    private func codeLines(_ text: String) -> [(number: Int, line: String)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { i, l in
            let t = l.trimmingCharacters(in: .whitespaces)
            return t.hasPrefix("//") || t.hasPrefix("///") || t.hasPrefix("*") ? nil : (i + 1, String(l))
        }
    }

    func testOneLockTypeEverywhere() throws {
        var found: [String] = []
        for (path, text) in try sources() where path != "Sources/LaunchAdCore/Concurrency/Locked.swift" {
            for (n, line) in codeLines(text)
            where line.contains("NSLock(") || line.contains("NSCondition(") || line.contains("NSRecursiveLock(")
                || line.contains("Mutex<") || line.contains("pthread_mutex_") || line.contains("os_unfair_lock")
            {
                found.append("\(path):\(n): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertEqual(found, [], "a lock or condition outside Locked (use Locked's withLock, change and wait)")
    }

    /// The types the compiler cannot check are the owners of C or OS objects (FFmpeg's, SDL's,
    /// a socket, a timer) and `Locked` itself; a type that only shares state uses `Locked`.
    func testUncheckedSendableOnlyOnOwnersOfCOrOSObjects() throws {
        var declared: [String] = []
        for (path, text) in try sources() {
            for (_, line) in codeLines(text) where line.contains("@unchecked Sendable") {
                let name = line.split(separator: " ").drop { $0 != "class" && $0 != "struct" }.dropFirst().first
                declared.append("\(path.split(separator: "/").last ?? ""):\(name.map { String($0.prefix { $0.isLetter }) } ?? "?")")
            }
        }
        XCTAssertLessThanOrEqual(declared.count, 15, declared.joined(separator: "\n"))
        let owners: Set<String> = [
            "Locked.swift:Locked",
            // FFmpeg's objects and the descriptor libavformat reads through.
            "Demuxer.swift:Demuxer", "Decoder.swift:Decoder", "Packet.swift:Packet", "Frame.swift:Frame",
            "Resampler.swift:Resampler", "FileByteSource.swift:FileByteSource",
            // Pipelines that own a decoder and a scaler or resampler, used by their thread alone.
            "VideoPipeline.swift:VideoPipeline", "AudioPipeline.swift:AudioPipeline",
            // SDL's audio device, the sd_notify socket, the watchdog's Dispatch timer.
            "AudioDevice.swift:AudioDevice", "SystemdNotifier.swift:SystemdNotifier",
            "ServiceKeepAlive.swift:ServiceKeepAlive"
        ]
        XCTAssertEqual(Set(declared).subtracting(owners), [], "@unchecked Sendable on a type that owns no C or OS object")
    }

    func testNoSourceFileIsOver400Lines() throws {
        let long = try sources().compactMap { path, text -> String? in
            let n = text.split(separator: "\n", omittingEmptySubsequences: false).count
            return n > 400 ? "\(path): \(n) lines" : nil
        }
        XCTAssertEqual(long, [])
    }
}
