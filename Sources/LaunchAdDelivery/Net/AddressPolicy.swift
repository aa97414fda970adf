import Foundation
import LaunchAdCore
import Synchronization

/// Judges the address a connection is about to reach (never the host name: a public name can
/// resolve to 127.0.0.1). `--allow-private-network` (labs) turns the rule off for the process.
///
/// Test seam: `LAUNCHAD_TEST_PUBLIC_ADDRESSES` lists IP addresses (comma-separated) that count
/// as public. The test suite's servers all run on loopback, so a test serves a "remote" document
/// from 127.0.0.2 declared public and checks that the URLs it names cannot reach 127.0.0.1.
/// Setting it can only make launchad treat more addresses as public.
public enum AddressPolicy {
    private static let allowAll = Atomic<Bool>(false)

    /// `--allow-private-network`: URLs named by remote documents may reach internal addresses too.
    public static var allowPrivateNetwork: Bool {
        get { allowAll.load(ordering: .relaxed) }
        set { allowAll.store(newValue, ordering: .relaxed) }
    }

    static let testPublic: Set<String> = Set(
        (ProcessInfo.processInfo.environment["LAUNCHAD_TEST_PUBLIC_ADDRESSES"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })

    /// Whether a connection to the numeric address `ip` must be judged internal: an address
    /// that cannot be read counts as internal (refused for a public-only URL).
    static func isInternal(_ ip: String) -> Bool { classify(ip) ?? true }

    /// Whether the peer `ip` is known to be internal: an address that cannot be read is not
    /// (the URLs its document names stay public-only).
    static func isKnownInternal(_ ip: String) -> Bool { classify(ip) ?? false }

    private static func classify(_ ip: String) -> Bool? {
        if testPublic.contains(ip) { return false }
        var v4 = in_addr()
        if inet_pton(AF_INET, ip, &v4) == 1 { return InternalAddress.contains(ipv4: withUnsafeBytes(of: &v4) { Array($0) }) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, ip, &v6) == 1 { return InternalAddress.contains(ipv6: withUnsafeBytes(of: &v6) { Array($0) }) }
        return nil
    }

    /// The numeric form of a socket address (IPv4 or IPv6), nil for other families.
    static func numeric(_ address: UnsafePointer<sockaddr>) -> String? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var a = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self).sin_addr
            guard inet_ntop(AF_INET, &a, &text, socklen_t(text.count)) != nil else { return nil }
        case AF_INET6:
            var a = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self).sin6_addr
            guard inet_ntop(AF_INET6, &a, &text, socklen_t(text.count)) != nil else { return nil }
        default: return nil
        }
        return String(cBuffer: text)
    }
}
