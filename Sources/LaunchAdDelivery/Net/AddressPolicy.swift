import Foundation
import LaunchAdCore
import Synchronization

/// Judges the address a connection is about to reach (never the host name: a public name can
/// resolve to 127.0.0.1). `--allow-private-network` (labs) turns the rule off for one run's
/// clients (`HTTPClient.allowPrivateNetwork`), never for the process.
///
/// Test seam: addresses that count as public *sources* (`countAsPublicSources`; in a debug build
/// also `LAUNCHAD_TEST_PUBLIC_ADDRESSES`, comma-separated, which a release build never reads:
/// the variable is compiled only under `LAUNCHAD_TEST_SEAMS`, which Package.swift defines for
/// debug builds). The test suite's servers all run on loopback, so a test serves a "remote"
/// document from 127.0.0.2 declared public and checks that the URLs it names cannot reach
/// 127.0.0.1. The seam only narrows: a listed address makes the documents it serves public, so
/// what they name is held to public addresses; it never makes the address itself reachable by
/// a public-only URL (the connect check ignores the list).
public enum AddressPolicy {
    private static let publicSources = Locked<Set<String>>(environmentPublicSources)

    #if LAUNCHAD_TEST_SEAMS
        private static var environmentPublicSources: Set<String> {
            Set(
                (ProcessInfo.processInfo.environment["LAUNCHAD_TEST_PUBLIC_ADDRESSES"] ?? "")
                    .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
    #else
        private static var environmentPublicSources: Set<String> { [] }
    #endif

    /// Tests: documents served from `addresses` count as public (what they name is held to
    /// public addresses). Only narrows: the addresses stay internal for every connection.
    public static func countAsPublicSources(_ addresses: Set<String>) { publicSources.withLock { $0.formUnion(addresses) } }

    /// Whether a connection to the numeric address `ip` must be judged internal: an address
    /// that cannot be read counts as internal (refused for a public-only URL). The test seam
    /// is not consulted here: it may never make an address reachable.
    static func isInternal(_ ip: String) -> Bool { classify(ip) ?? true }

    /// Whether the peer `ip`, which served a document, is known to be internal: an address
    /// that cannot be read is not (the URLs its document names stay public-only), nor is one
    /// the test seam declares a public source.
    static func isKnownInternal(_ ip: String) -> Bool {
        if publicSources.withLock({ $0.contains(ip) }) { return false }
        return classify(ip) ?? false
    }

    private static func classify(_ ip: String) -> Bool? {
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
