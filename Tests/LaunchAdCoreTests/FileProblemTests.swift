import Foundation
import LaunchAdCore
import XCTest

/// Foundation's file errors said plainly: the path and a few words, never `Error Domain=…`.
final class FileProblemTests: XCTestCase {
    func testAMissingFileReadThroughFoundationIsNoSuchFile() {
        XCTAssertThrowsError(try Data(contentsOf: URL(fileURLWithPath: "/nonexistent-launchad/m.json"))) { error in
            let problem = FileProblem(error, path: "m.json", access: .read)
            XCTAssertEqual(problem.description, "cannot read m.json: no such file")
        }
    }

    func testAWriteIntoAMissingFolderNamesTheFolder() {
        XCTAssertThrowsError(try Data("x".utf8).write(to: URL(fileURLWithPath: "/nonexistent-launchad/dir/x.png"))) { error in
            XCTAssertEqual(
                FileProblem(error, path: "/nonexistent-launchad/dir/x.png", access: .write).description,
                "cannot write /nonexistent-launchad/dir/x.png: the folder /nonexistent-launchad/dir does not exist")
        }
        XCTAssertEqual(FileProblem(errno: ENOENT, path: "x.png", access: .write).reason, "the folder . does not exist")
    }

    func testAFolderInPlaceOfAFileIsSaid() {
        XCTAssertThrowsError(try Data("x".utf8).write(to: URL(fileURLWithPath: NSTemporaryDirectory()))) { error in
            let line = FileProblem(error, path: "tmp", access: .write).description
            XCTAssertTrue(line.hasPrefix("cannot write tmp: "), line)
            XCTAssertFalse(line.contains("Error Domain") || line.contains("could not be completed"), line)
        }
    }

    func testEveryReasonIsPlainWords() {
        XCTAssertEqual(FileProblem(errno: EACCES, path: "/root/x", access: .read).description, "cannot read /root/x: permission denied")
        XCTAssertEqual(FileProblem(errno: EPERM, path: "x", access: .write).reason, "permission denied")
        XCTAssertEqual(FileProblem(errno: EISDIR, path: "x", access: .write).reason, "it is a folder")
        XCTAssertEqual(FileProblem(errno: ENOTDIR, path: "a/b", access: .read).reason, "a part of the path is not a folder")
        XCTAssertEqual(FileProblem(errno: ENOSPC, path: "x", access: .write).reason, "no space left on the device")
        XCTAssertEqual(FileProblem(errno: EROFS, path: "x", access: .write).reason, "read-only file system")
        XCTAssertEqual(FileProblem(errno: EIO, path: "x", access: .read).reason, "input/output error")
    }

    func testCocoaCodesWithoutAnUnderlyingErrorStillMap() {
        let denied = CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "/x"])
        XCTAssertEqual(FileProblem(denied, path: "/x", access: .write).reason, "permission denied")
        let full = CocoaError(.fileWriteOutOfSpace)
        XCTAssertEqual(FileProblem(full, path: "/x", access: .write).reason, "no space left on the device")
        struct Other: Error, CustomStringConvertible { var description: String { "its own words" } }
        XCTAssertEqual(FileProblem(Other(), path: "/x", access: .read).reason, "its own words")
    }
}
