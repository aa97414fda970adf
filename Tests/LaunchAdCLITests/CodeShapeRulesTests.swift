import Foundation
import LaunchAdTestSupport
import XCTest

/// Issue 31's shape rules, read off the sources so that they cannot creep back: one lock type
/// (`Locked`, which can also wait), `@unchecked Sendable` only where a C or OS object is owned,
/// and files small enough to read.
final class CodeShapeRulesTests: XCTestCase {
    private func sources() throws -> [(path: String, text: String)] {
        let files = try SourceFiles.all()
        XCTAssertGreaterThan(files.count, 100, "the sources were found")
        return files
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
    /// a socket, a timer) and the three primitives that check what they promise at run time:
    /// `Locked`, `Confined` (one side at a time) and the embedding API's `EntryLock` (one thread
    /// at a time); a type that only shares state uses `Locked`.
    func testUncheckedSendableOnlyOnOwnersOfCOrOSObjects() throws {
        var declared: [String] = []
        for (path, text) in try sources() {
            for (_, line) in codeLines(text) where line.contains("@unchecked Sendable") {
                let name = line.split(separator: " ").drop { $0 != "class" && $0 != "struct" }.dropFirst().first
                declared.append("\(path.split(separator: "/").last ?? ""):\(name.map { String($0.prefix { $0.isLetter }) } ?? "?")")
            }
        }
        XCTAssertLessThanOrEqual(declared.count, 17, declared.joined(separator: "\n"))
        let owners: Set<String> = [
            "Locked.swift:Locked", "Confined.swift:Confined", "EntryLock.swift:EntryLock",
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

    /// No function, initialiser or closure-free body longer than 60 lines: long ones are split
    /// into steps with names (the braces are counted outside strings and comments).
    func testNoFunctionIsOver60Lines() throws {
        // The counting itself: a 72-line function ends on its last line, braces in strings aside.
        let made = ["func f() {", #"    let s = "}{""#] + Array(repeating: "    g()", count: 69) + ["}"]
        XCTAssertEqual(Self.bodyEnd(Self.strippedLines(made.joined(separator: "\n")), from: 0), 71)
        var long: [String] = []
        for (path, text) in try sources() {
            let code = Self.strippedLines(text)
            for (n, line) in code.enumerated()
            where line.range(of: #"\b(func\s|init\s*[(<?!]|deinit\b)"#, options: .regularExpression) != nil {
                guard let end = Self.bodyEnd(code, from: n) else { continue }
                if end - n + 1 > 60 { long.append("\(path):\(n + 1): \(end - n + 1) lines") }
            }
        }
        XCTAssertEqual(long, [])
    }

    /// The line where the body starting at `start` (its first `{` within a few lines) closes.
    private static func bodyEnd(_ code: [String], from start: Int) -> Int? {
        var depth = 0, opened = false
        for k in start..<min(code.count, start + 1000) {
            for c in code[k] {
                if c == "{" { depth += 1; opened = true }
                if c == "}" {
                    depth -= 1
                    if opened && depth == 0 { return k }
                }
            }
            if !opened && k > start + 8 { return nil }
        }
        return nil
    }

    /// Each line with its comments and string literals' contents taken out.
    private static func strippedLines(_ text: String) -> [String] {
        var inMultiline = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { raw in
            var out = ""
            var chars = Array(raw)[...]
            while let c = chars.first {
                if inMultiline {
                    if chars.starts(with: "\"\"\"") { inMultiline = false; chars = chars.dropFirst(3) } else { chars = chars.dropFirst() }
                    continue
                }
                if chars.starts(with: "//") { break }
                if chars.starts(with: "\"\"\"") { inMultiline = true; chars = chars.dropFirst(3); continue }
                if c == "\"" {
                    chars = chars.dropFirst()
                    while let d = chars.first, d != "\"" { chars = chars.dropFirst(d == "\\" ? 2 : 1) }
                    chars = chars.dropFirst()
                    continue
                }
                out.append(c)
                chars = chars.dropFirst()
            }
            return out
        }
    }
}
