import Foundation
import LaunchAdTestSupport

/// A socket listening as systemd listens for sd_notify(3): AF_UNIX datagrams at a path, or at an
/// abstract name (`@...`). Keeps every datagram received, in order.
final class NotifyListener: @unchecked Sendable {  // `_messages` guarded by `lock`
    /// What `NOTIFY_SOCKET` must say to reach this listener.
    let address: String
    private let fd: Int32
    private let lock = NSLock()
    private var _messages: [String] = []
    private let path: String?

    init(abstract: Bool = false) throws {
        let name = "launchad-notify-\(UUID().uuidString.prefix(8))"
        path = abstract ? nil : NSTemporaryDirectory() + name
        address = abstract ? "@" + name : path!
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { close(fd); throw FixtureError("cannot bind \(address): \(String(cString: strerror(errno)))") }
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                guard n > 0 else { return }
                lock.lock(); _messages.append(String(decoding: buffer[0..<n], as: UTF8.self)); lock.unlock()
            }
        }
    }

    var messages: [String] { lock.lock(); defer { lock.unlock() }; return _messages }

    /// Each datagram's assignments, in order (`READY=1`, `WATCHDOG=1`, `STATUS=...`).
    var assignments: [String] { messages.flatMap { $0.split(separator: "\n").map(String.init) } }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        if let path { unlink(path) }
    }
}
