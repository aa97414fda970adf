import Foundation
import LaunchAdCore
import LaunchAdTestSupport

/// The embedding examples as scripts/build-examples.sh builds them into .build/examples
/// (`ExamplesBuild`), the way the GL and toolkit tests reach them.
enum ExampleHosts {
    static let root = ExamplesBuild.root
    static let dir = ExamplesBuild.folder
    static var built: Result<Void, Error> { ExamplesBuild.built }

    static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// The event names `launchad play ARGS` writes, headless, as the hosts print them
    /// (`end` followed by its outcome).
    static func commandLineEvents(_ args: [String]) throws -> [String] {
        let run = try Launchad.run(["play"] + args, environment: Launchad.headlessEnvironment([:]))
        return run.stdout.split(separator: "\n").compactMap { line in
            guard let o = parseJSON(String(line)) as? [String: Any], let name = o["event"] as? String else { return nil }
            return name == "end" ? "end \(o["outcome"] as? String ?? "")" : name
        }
    }
}

/// A picture a host wrote as binary PPM (P6), top row first.
struct PPM {
    let size: Size
    let pixels: [UInt8]

    init(contentsOf path: String) throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // "P6", width, height, 255, each after white space; the pixels after one more byte.
        var fields: [Int] = []
        var i = 2
        while fields.count < 3 {
            while i < data.count, data[i] == 0x20 || data[i] == 0x0A { i += 1 }
            var n = 0
            while i < data.count, (0x30...0x39).contains(data[i]) {
                n = n * 10 + Int(data[i] - 0x30)
                i += 1
            }
            fields.append(n)
        }
        size = Size(width: fields[0], height: fields[1])
        pixels = Array(data[(i + 1)...])
        guard data.starts(with: [0x50, 0x36]), pixels.count == size.width * size.height * 3 else {
            throw FixtureError("\(path) is not a \(size) P6 picture")
        }
    }

    subscript(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let o = (y * size.width + x) * 3
        return (pixels[o], pixels[o + 1], pixels[o + 2])
    }
}
