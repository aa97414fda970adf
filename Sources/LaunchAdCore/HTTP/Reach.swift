/// Which addresses a URL may reach, decided by who named it. A URL the user named (command line,
/// a local file) may reach any address; so may one named by a document that itself came from an
/// internal address (a lab server on the LAN). A URL named by a document fetched from a public
/// address — a tag, a wrapper, a manifest, a redirect — may reach public addresses only, so a
/// remote ad server cannot make launchad request loopback, the LAN or a cloud metadata service.
public enum Reach: String, Codable, Equatable, Sendable {
    case any
    case publicOnly = "public_only"

    /// The reach of the URLs a document names, by where the document came from.
    public static func namedByDocument(fromInternalAddress: Bool) -> Reach { fromInternalAddress ? .any : .publicOnly }

    /// The narrower of two: a chain of documents is trusted as far as its least trusted one.
    public func narrowed(_ other: Reach) -> Reach { self == .publicOnly || other == .publicOnly ? .publicOnly : .any }
}

/// Internal addresses: the ones a URL named by a public document may not reach.
public enum InternalAddress {
    /// 0.0.0.0/8 (reaches this host), 10/8, 100.64/10 (carrier NAT), 127/8, 169.254/16 (link-local,
    /// cloud metadata), 172.16/12, 192.168/16, 192.0.0/24, 198.18/15 (benchmarking), multicast and
    /// reserved 224/3.
    public static func contains(ipv4 b: [UInt8]) -> Bool {
        guard b.count == 4 else { return true }
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _), (169, 254), (192, 168): return true
        case (100, 64...127), (172, 16...31), (198, 18...19): return true
        case (192, 0) where b[2] == 0: return true
        default: return b[0] >= 224
        }
    }

    /// ::, ::1, fc00::/7 (unique-local), fe80::/10 (link-local), fec0::/10 (old site-local),
    /// ff00::/8 (multicast); an IPv4 address inside ::ffff:0:0/96 (mapped), ::/96 (compatible) or
    /// 64:ff9b::/96 (NAT64) is judged as that IPv4 address.
    public static func contains(ipv6 b: [UInt8]) -> Bool {
        guard b.count == 16 else { return true }
        let v4 = Array(b[12..<16])
        if b[0..<10].allSatisfy({ $0 == 0 }) && (b[10..<12].allSatisfy({ $0 == 0xff }) || b[10..<12].allSatisfy({ $0 == 0 })) {
            // ::/96 holds :: and ::1 too: judged as 0.0.0.0/8, internal.
            return contains(ipv4: v4)
        }
        if b[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return contains(ipv4: v4) }
        if b[0] & 0xfe == 0xfc { return true }
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return true }
        if b[0] == 0xfe && b[1] & 0xc0 == 0xc0 { return true }
        return b[0] == 0xff
    }
}
