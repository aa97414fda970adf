// CCurl for SOCK_DGRAM and SOCK_CLOEXEC: curl.h includes <sys/socket.h> first in this module, and a
// whole-module (release) build finds the socket constants only through that import.
import CCurl
import Foundation
import Glibc
import LaunchAdCore

/// systemd's notify protocol spoken directly (sd_notify(3) without libsystemd): each message is
/// one datagram to the AF_UNIX socket `$NOTIFY_SOCKET` names, a path or, starting with `@`, an
/// abstract name. Sends never block (a full or dead socket drops the message) and never fail
/// the caller: the screen matters more than its supervisor.
// @unchecked Sendable: `fd` and `address` are set once in init; sendto(2) is thread-safe.
public final class SystemdNotifier: ServiceNotifier, @unchecked Sendable {
    private let fd: Int32
    private var address: sockaddr_un
    private let addressLength: socklen_t
    public let pingIntervalMs: Int

    /// The notifier for this process's environment, or nil without `NOTIFY_SOCKET` (not run by
    /// systemd as `Type=notify`). `WATCHDOG_PID` is not required to be this process: the kiosk
    /// units start launchad below xinit, weston or cage (`NotifyAccess=all`), whose pid it names.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) -> SystemdNotifier? {
        guard let path = env["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        return SystemdNotifier(socketPath: path, pingIntervalMs: WatchdogPolicy.pingInterval(watchdogUsec: env["WATCHDOG_USEC"]))
    }

    /// nil when the name does not fit a socket address or no socket can be made.
    public init?(socketPath: String, pingIntervalMs: Int) {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        // "@name" is Linux's abstract namespace: a leading NUL, and the length counts only the name.
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count > (abstract ? 1 : 0), bytes.count < capacity, abstract || !bytes.contains(0) else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes) }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        self.fd = fd
        address = addr
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        self.pingIntervalMs = pingIntervalMs
    }

    public func notify(_ message: NotifyMessage) {
        var addr = address
        let data = Array(message.text.utf8)
        _ = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                data.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), sa, addressLength) }
            }
        }
    }

    deinit { close(fd) }
}
