import LaunchAdCore
import LaunchAdDelivery
import LaunchAdTestSupport
import XCTest

/// The cache touches only what it made: an unmarked folder is refused, index records and
/// symlinks cannot point it elsewhere, and a file changed in place is never used.
final class CacheFolderTests: XCTestCase {
    var root: URL!
    let fm = FileManager.default

    override func setUpWithError() throws { root = try makeTempDir("folder") }
    override func tearDownWithError() throws { try? fm.removeItem(at: root) }

    func mode(_ path: String) throws -> Int { (try fm.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1 }
    func refusal(_ body: () throws -> Void) -> CacheError? {
        do { try body(); return nil } catch let e as CacheError { return e } catch { return nil }
    }

    func testANewFolderIsMadePrivateAndTagged() throws {
        let dir = root.appendingPathComponent("a/b/cache")
        _ = try CacheStore(directory: dir)
        XCTAssertEqual(try mode(dir.path), 0o700)
        XCTAssertEqual(try mode(dir.appendingPathComponent("objects").path), 0o700)
        let tag = try String(contentsOf: dir.appendingPathComponent("CACHEDIR.TAG"), encoding: .utf8)
        XCTAssertTrue(tag.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55"), tag)
        _ = try CacheStore(directory: dir)  // and it is taken again as launchad's
    }

    /// A folder with someone's files and no tag (`~`, a repository's `.git`) is refused and left
    /// exactly as it was.
    func testAnUnmarkedFolderWithOtherFilesIsRefusedUntouched() throws {
        let git = root.appendingPathComponent(".git")
        try fm.createDirectory(at: git.appendingPathComponent("objects/ab"), withIntermediateDirectories: true)
        try Data("ref: refs/heads/main\n".utf8).write(to: git.appendingPathComponent("HEAD"))
        try Data("blob".utf8).write(to: git.appendingPathComponent("objects/ab/cdef"))
        let e = refusal { _ = try CacheStore(directory: git) }
        XCTAssertEqual(e?.isRefusal, true)
        XCTAssertEqual(
            e?.message,
            "\(git.path) is not a launchad cache folder (it holds other files and no CACHEDIR.TAG); give --cache a new or empty folder")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: git.path).sorted(), ["HEAD", "objects"])
        XCTAssertEqual(try Data(contentsOf: git.appendingPathComponent("objects/ab/cdef")), Data("blob".utf8))
    }

    func testAFolderOfAnotherUserOrWritableByOthersIsRefused() throws {
        let open = root.appendingPathComponent("open")
        try fm.createDirectory(at: open, withIntermediateDirectories: true)
        chmod(open.path, 0o777)
        XCTAssertEqual(
            refusal { _ = try CacheStore(directory: open) }?.message,
            "\(open.path) is writable by group or others (mode 777); chmod 700 it")
        try EnvironmentSkip.unlessRoot("a second user")
        let theirs = root.appendingPathComponent("theirs")
        try fm.createDirectory(at: theirs, withIntermediateDirectories: true)
        XCTAssertEqual(chown(theirs.path, 65534, 65534), 0)
        XCTAssertEqual(
            refusal { _ = try CacheStore(directory: theirs) }?.message,
            "\(theirs.path) belongs to another user (uid 65534); launchad uses only a folder of its own")
        XCTAssertFalse(fm.fileExists(atPath: theirs.appendingPathComponent("CACHEDIR.TAG").path))
    }

    /// An index record naming `../victim` is dropped unread: the refresh deletes nothing there.
    func testRecordsOutsideObjectsAreIgnored() throws {
        let dir = root.appendingPathComponent("cache")
        let store = try CacheStore(directory: dir)
        let victim = root.appendingPathComponent("victim")
        try fm.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: victim.appendingPathComponent("file"))
        let sha = SHA256.hex(of: Data("x".utf8))
        let json =
            #"{"version": 1, "ads": [], "files": {"\#(sha)": {"file": "../victim", "bytes": 4, "url": "u", "fetched_at": "2026-01-01T00:00:00Z"}, "\#(SHA256.hex(of: Data("y".utf8)))": {"file": "objects/\#(sha).mp4", "bytes": 1, "url": "u", "fetched_at": "2026-01-01T00:00:00Z"}}}"#
        try Data(json.utf8).write(to: dir.appendingPathComponent("index.json"))
        XCTAssertTrue(store.readIndex().files.isEmpty, "neither a path out of objects/ nor another sha's file is accepted")
        try store.update { index in
            index.files[sha] = FileRecord(file: "../victim", bytes: 4, url: "u", fetchedAt: Date(), lastShown: nil)
            store.remove(sha, from: &index)
            store.sweep(index)
        }
        XCTAssertEqual(try Data(contentsOf: victim.appendingPathComponent("file")), Data("keep".utf8))
    }

    /// `objects` or `tmp` replaced by a symlink, `lock` as a symlink: nothing is followed.
    func testSymlinksInTheCacheAreNeverFollowed() throws {
        let dir = root.appendingPathComponent("cache")
        let store = try CacheStore(directory: dir)
        let target = root.appendingPathComponent("target")
        try fm.createDirectory(at: target, withIntermediateDirectories: true)
        let precious = target.appendingPathComponent("\(SHA256.hex(of: Data("p".utf8))).mp4")
        try Data("p".utf8).write(to: precious)
        try fm.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: precious.path)
        for sub in ["objects", "tmp"] {
            try fm.removeItem(at: dir.appendingPathComponent(sub))
            try fm.createSymbolicLink(at: dir.appendingPathComponent(sub), withDestinationURL: target)
        }
        try store.update { store.sweep($0) }
        XCTAssertTrue(fm.fileExists(atPath: precious.path), "the sweep did not go through the symlinks")
        XCTAssertEqual(
            refusal { _ = try CacheStore(directory: dir) }?.message,
            "\(dir.path)/objects is not a folder (a symlink or a file); launchad will not use it")

        let other = root.appendingPathComponent("cache2")
        let store2 = try CacheStore(directory: other)
        let lockTarget = root.appendingPathComponent("created-by-lock")
        try fm.createSymbolicLink(at: other.appendingPathComponent("lock"), withDestinationURL: lockTarget)
        XCTAssertThrowsError(try store2.markShown([], at: Date()))
        XCTAssertFalse(fm.fileExists(atPath: lockTarget.path), "the lock's symlink target was not created")
    }

    /// The sweep unlinks only regular files with names launchad writes; it never recurses.
    func testSweepRemovesOnlyLaunchadsOwnFiles() throws {
        let dir = root.appendingPathComponent("cache")
        let store = try CacheStore(directory: dir)
        let objects = dir.appendingPathComponent("objects"), tmp = dir.appendingPathComponent("tmp")
        let stray = objects.appendingPathComponent("\(SHA256.hex(of: Data("s".utf8))).png")
        try Data("s".utf8).write(to: stray)
        let foreign = objects.appendingPathComponent("notes.txt")
        try Data("n".utf8).write(to: foreign)
        let folder = objects.appendingPathComponent("\(SHA256.hex(of: Data("d".utf8))).mp4")
        try fm.createDirectory(at: folder.appendingPathComponent("inner"), withIntermediateDirectories: true)
        let oldPart = tmp.appendingPathComponent("123-456.part"), oldOther = tmp.appendingPathComponent("keep.bin")
        for f in [oldPart, oldOther] {
            try Data("t".utf8).write(to: f)
            try fm.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: f.path)
        }
        try store.update { store.sweep($0) }
        XCTAssertFalse(fm.fileExists(atPath: stray.path))
        XCTAssertFalse(fm.fileExists(atPath: oldPart.path))
        for kept in [foreign, folder.appendingPathComponent("inner"), oldOther] {
            XCTAssertTrue(fm.fileExists(atPath: kept.path), kept.lastPathComponent)
        }
    }

    /// Eight bytes overwritten at the same size: not available on the launch path (mtime), and
    /// a refresh re-hashes, drops it and fetches it again.
    func testAFileChangedInPlaceIsNotUsedAndIsFetchedAgain() throws {
        let dir = root.appendingPathComponent("cache")
        let store = try CacheStore(directory: dir)
        let body = Data((0..<4096).map { UInt8($0 % 251) })
        let creative = Creative(
            url: URL(string: "https://ads.example.com/a.mp4")!, width: 720, height: 1280,
            bytes: Int64(body.count), sha256: SHA256.hex(of: body))
        let temp = store.newTempURL()
        try body.write(to: temp)
        try store.update { try store.install(temp, as: creative, kind: .video, into: &$0, now: Date()) }
        XCTAssertTrue(store.isAvailable(creative, in: store.readIndex()))
        let file = store.url(of: store.readIndex().files[creative.sha256]!)
        let h = try FileHandle(forWritingTo: file)
        try h.seek(toOffset: 1000)
        try h.write(contentsOf: Data(repeating: 0xEE, count: 8))
        try h.close()
        // Written after it was verified, as its time says (a clock's granularity must not hide it).
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(2)], ofItemAtPath: file.path)
        XCTAssertFalse(store.isAvailable(creative, in: store.readIndex()), "written to since it was verified")
        XCTAssertFalse(store.recheck(creative))

        let net = FakeFetcher()
        let manifest =
            #"{"ads": [{"id": "a", "type": "video", "variants": [{"url": "a.mp4", "width": 720, "height": 1280, "bytes": \#(body.count), "sha256": "\#(creative.sha256)"}]}]}"#
        net.set("https://ads.example.com/m.json", .body(200, Data(manifest.utf8), [:]))
        net.set("https://ads.example.com/a.mp4", .body(200, body, [:]))
        let sink = RecordingSink()
        let config = PrefetchConfig(
            manifestURL: URL(string: "https://ads.example.com/m.json")!, screen: Size(width: 720, height: 1280),
            cacheLimit: 1_000_000)
        XCTAssertTrue(Prefetcher(store: store, fetcher: net, sink: sink, config: config).run().ok)
        XCTAssertEqual(sink.events.filter { $0.name == "evicted" }.map { $0["reason"] }, [.string("damaged")])
        XCTAssertEqual(sink.events.filter { $0.name == "download" }.count, 1)
        XCTAssertEqual(try Data(contentsOf: file), body)
        XCTAssertTrue(store.isAvailable(creative, in: store.readIndex()))
    }
}
