import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// A fresh cache folder per test.
func makeTempDir(_ name: String) throws -> URL {
    let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("launchad-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

final class CacheTests: XCTestCase {
    var dir: URL!
    var store: CacheStore!
    let body = Data("a creative's bytes".utf8)
    lazy var creative = Creative(
        url: URL(string: "https://cdn.example.com/x/../ad.MP4?v=1")!, width: 720, height: 1280,
        bytes: Int64(body.count), sha256: SHA256.hex(of: body))

    override func setUpWithError() throws {
        dir = try makeTempDir("cache")
        store = try CacheStore(directory: dir)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func temp(_ data: Data) throws -> URL {
        let url = store.newTempURL()
        try data.write(to: url)
        return url
    }

    func testInstallNamesFilesByContentAndWritesAReadableIndex() throws {
        let file = try temp(body)
        try CacheStore.verify(file, as: creative)
        try store.update { try store.install(file, as: creative, kind: .video, into: &$0, now: Date()) }
        let stored = dir.appendingPathComponent("objects/\(creative.sha256).mp4")
        XCTAssertEqual(try Data(contentsOf: stored), body)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "the temporary file was moved, not copied")
        XCTAssertTrue(store.isAvailable(creative, in: store.readIndex()))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("index.json"))) as? [String: Any]
        let files = json?["files"] as? [String: [String: Any]]
        XCTAssertEqual(files?[creative.sha256]?["file"] as? String, "objects/\(creative.sha256).mp4")
        XCTAssertEqual(files?[creative.sha256]?["bytes"] as? Int, body.count)
    }

    func testURLsNeverBecomePaths() throws {
        var odd = creative
        odd.url = URL(string: "https://cdn.example.com/../../etc/passwd%2F..%2Fx.sh")!
        let file = try temp(body)
        try store.update { try store.install(file, as: odd, kind: .image, into: &$0, now: Date()) }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("objects").path),
            ["\(creative.sha256).png"])
    }

    func testVerifyRejectsWrongSizeAndWrongContent() throws {
        let short = try temp(body.dropLast())
        XCTAssertThrowsError(try CacheStore.verify(short, as: creative)) {
            XCTAssertEqual("\($0)", "size mismatch: got \(body.count - 1) bytes, the manifest says \(body.count)")
        }
        var changed = body
        changed[0] ^= 1
        XCTAssertThrowsError(try CacheStore.verify(try temp(changed), as: creative)) {
            XCTAssertEqual("\($0)", "sha256 mismatch: the file is not the one the manifest describes")
        }
    }

    func testADamagedFileOnDiskIsNotAvailable() throws {
        let file = try temp(body)
        try store.update { try store.install(file, as: creative, kind: .video, into: &$0, now: Date()) }
        let stored = dir.appendingPathComponent("objects/\(creative.sha256).mp4")
        try body.prefix(3).write(to: stored)
        XCTAssertFalse(store.isAvailable(creative, in: store.readIndex()))
    }

    func testSweepRemovesStrayFilesAndStaleDownloads() throws {
        let stray = dir.appendingPathComponent("objects/\(SHA256.hex(of: Data("leftover".utf8))).mp4")
        try body.write(to: stray)
        let stale = try temp(body), fresh = try temp(body)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: stale.path)
        try store.update { store.sweep($0) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: stray.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh.path), "a download in progress is left alone")
    }

    /// Another process holding the lock makes us wait, then give up with one line; once that
    /// process is killed (SIGKILL, no clean-up), the kernel has released the lock.
    func testLockHeldByAnotherProcessAndReleasedWhenItIsKilled() throws {
        let lockPath = dir.appendingPathComponent("lock").path
        let holder = Process()
        // One process that holds the lock itself (flock(1) would hand it to a child that outlives the kill).
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        holder.arguments = ["-e", #"use Fcntl ":flock"; open(my $f, ">>", $ARGV[0]) or die; flock($f, LOCK_EX) or die; sleep 60"#, lockPath]
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        // Wait until flock holds it.
        XCTAssertTrue(Wait.until { (try? Fixtures.run("/usr/bin/flock", ["-n", lockPath, "true"]).status) == 1 })
        store = try CacheStore(directory: dir, lockTimeout: 0.3)
        let started = Date()
        XCTAssertThrowsError(try store.markShown([creative.sha256], at: Date())) {
            XCTAssertEqual("\($0)", "the cache is locked by another launchad process (waited 0.3 s)")
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3)
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        XCTAssertNoThrow(try store.markShown([creative.sha256], at: Date()))
    }

    /// A writer waiting for the lock gets it when the holder lets go, well inside its wait: the
    /// wait is the kernel's (a blocking flock), not a give-up at the first refusal.
    func testAWaitingWriterGetsTheLockWhenTheHolderLetsGo() throws {
        let lockPath = dir.appendingPathComponent("lock").path
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        // Holds the lock, says so on stdout, and lets go after 0.5 s.
        holder.arguments = [
            "-e",
            #"use Fcntl ":flock"; $|=1; open(my $f, ">>", $ARGV[0]) or die; flock($f, LOCK_EX) or die; print "held\n"; select(undef,undef,undef,0.5)"#,
            lockPath
        ]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readData(ofLength: 5), as: UTF8.self), "held\n")
        let patient = try CacheStore(directory: dir, lockTimeout: 30)
        XCTAssertNoThrow(try patient.markShown([creative.sha256], at: Date()))
        holder.waitUntilExit()
    }

    /// Concurrent updates from many writers all land: each re-reads the index under the lock.
    func testConcurrentUpdatesAreNotLost() throws {
        let other = try CacheStore(directory: dir), mine: CacheStore = store
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            let s = i % 2 == 0 ? mine : other
            try? s.update { index in
                let sha = SHA256.hex(of: Data("\(i)".utf8))
                index.files[sha] = FileRecord(file: "objects/\(sha).mp4", bytes: 1, url: "u", fetchedAt: Date(), lastShown: nil)
            }
        }
        XCTAssertEqual(store.readIndex().files.count, 40)
    }

    func testACorruptIndexReadsAsEmpty() throws {
        try Data("{not json".utf8).write(to: dir.appendingPathComponent("index.json"))
        XCTAssertEqual(store.readIndex(), CacheIndex())
    }
}
