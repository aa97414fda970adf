import Foundation
import LaunchAdCore

/// Media fixtures for the tests, made once per machine with the ffmpeg command-line tool
/// (a test helper only: the product never calls it) and kept in a cache folder by recipe.
public enum Fixtures {
    public static let directory: URL = {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-fixtures")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }()

    /// The repository's top folder (for Media/ and the built binary).
    public static let repoRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    public static func media(_ name: String) -> String { repoRoot.appendingPathComponent("Media/\(name)").path }

    /// Runs `ffmpeg -y -hide_banner -loglevel error ARGS OUTPUT` unless `name` is already made.
    /// The recipe is part of the file name's hash so changing it remakes the file.
    public static func make(_ name: String, _ args: [String]) throws -> String {
        let key = String(stableHash(args.joined(separator: " ")), radix: 36)
        let ext = (name as NSString).pathExtension
        let base = (name as NSString).deletingPathExtension
        let out = directory.appendingPathComponent("\(base)-\(key).\(ext)").path
        if FileManager.default.fileExists(atPath: out) { return out }
        // A name of this process's own, renamed over the target, so two test runs never share a part file.
        let tmp = out + ".part\(getpid()).\(ext)"
        let result = try run("/usr/bin/ffmpeg", ["-y", "-hide_banner", "-loglevel", "error"] + args + [tmp])
        guard result.status == 0 else { throw FixtureError("ffmpeg failed for \(name): \(result.stderr)") }
        guard rename(tmp, out) == 0 else { throw FixtureError("cannot install fixture \(name)") }
        return out
    }

    /// Writes raw bytes as a fixture (for non-media and damaged files).
    public static func write(_ name: String, _ data: Data) throws -> String {
        let out = directory.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: out))
        return out
    }

    /// The bytes of a solid-colour PNG, e.g. `solidPNG("red")`.
    public static func solidPNG(_ colour: String, size: String = "320x240") throws -> Data {
        try Data(
            contentsOf: URL(
                fileURLWithPath: make(
                    "\(colour)-\(size).png",
                    ["-f", "lavfi", "-i", "color=c=\(colour):s=\(size)", "-frames:v", "1"])))
    }

    /// A solid-colour video whose colour changes each second: red, green, blue, white, ...
    public static func colourBars(seconds: Int = 4, size: String = "320x240", audio: Bool = true, rate: Int = 25) throws -> String {
        let colours = ["red", "lime", "blue", "white", "yellow", "cyan", "magenta", "gray"]
        var args: [String] = []
        for i in 0..<seconds {
            args += ["-f", "lavfi", "-i", "color=c=\(colours[i % colours.count]):s=\(size):r=\(rate):d=1"]
        }
        if audio { args += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"] }
        let concat = (0..<seconds).map { "[\($0):v]" }.joined() + "concat=n=\(seconds):v=1:a=0[v]"
        args += ["-filter_complex", concat, "-map", "[v]"]
        if audio { args += ["-map", "\(seconds):a", "-c:a", "aac", "-ac", "2"] }
        args += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-movflags", "+faststart", "-t", "\(seconds)"]
        return try make("bars-\(seconds)s-\(size)-\(audio ? "av" : "v").mp4", args)
    }

    public struct Result { public let status: Int32; public let stdout: String; public let stderr: String }

    /// Runs a program to completion, capturing its output.
    @discardableResult
    public static func run(
        _ exe: String, _ args: [String], environment: [String: String]? = nil,
        stdin: Data? = nil
    ) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let errBox = Locked(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errBox.withLock { $0 = data }
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.withLock { $0 }
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    public static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return h
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}
