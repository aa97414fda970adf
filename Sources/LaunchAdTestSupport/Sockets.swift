import Foundation

/// A TCP socket listening on `host` (a loopback address) at a port the kernel picked.
public func listeningSocket(backlog: Int32, host: String = "127.0.0.1") throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var addr = loopback(0)
    addr.sin_addr.s_addr = inet_addr(host)
    guard
        withUnsafePointer(
            to: &addr,
            {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }) == 0, listen(fd, backlog) == 0
    else {
        close(fd)
        throw FixtureError("cannot listen on 127.0.0.1")
    }
    return (fd, boundPort(fd))
}

/// A port nothing listens on right now.
public func freePort() throws -> UInt16 {
    let s = try listeningSocket(backlog: 1)
    close(s.fd)
    return s.port
}

public func loopback(_ port: UInt16) -> sockaddr_in {
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    return addr
}

public func boundPort(_ fd: Int32) -> UInt16 {
    var addr = sockaddr_in()
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return UInt16(bigEndian: addr.sin_port)
}
