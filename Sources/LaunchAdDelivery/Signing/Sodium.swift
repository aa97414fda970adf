import CSodium
import Foundation
import LaunchAdCore

/// libsodium's functions, the library opened the first time a signature is checked rather than
/// at start-up (Sources/CLazyLoad/lazy_load.h): a process that verifies nothing never loads it.
/// Reached only through `Sodium.open()`, which asks whether it is there first.
private let libsodium = launchad_libsodium().pointee

/// Whether sodium_init succeeded; run once, on the first `open()` that finds the library.
private let sodiumStarted: Bool = libsodium.sodium_init() >= 0

/// The two primitives of a minisign signature, from libsodium: the one place launchad calls it.
/// Holds no C object (libsodium's functions take and return plain bytes), so it is a plain value.
public struct Sodium: SignatureCrypto {
    /// Nil when libsodium and every function launchad calls in it are there; else why not, in one line.
    public static var problem: String? { launchad_libsodium_problem().map { String(cString: $0) } }

    private init() {}

    /// libsodium, loaded and initialised; a `SodiumError` naming why not (not installed, too old).
    public static func open() throws -> Sodium {
        if let problem { throw SodiumError(problem) }
        guard sodiumStarted else { throw SodiumError("libsodium.so.23 could not be initialised (sodium_init failed)") }
        return Sodium()
    }

    public func blake2b512(_ data: Data) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(crypto_generichash_BYTES_MAX))
        let status = Self.withBytes(data) { input, count in
            out.withUnsafeMutableBufferPointer { libsodium.crypto_generichash($0.baseAddress, $0.count, input, UInt64(count), nil, 0) }
        }
        // Only a wrong output length fails, and this one is libsodium's own maximum.
        precondition(status == 0, "crypto_generichash failed")
        return out
    }

    public func verify(signature: [UInt8], message: Data, key: [UInt8]) -> Bool {
        guard signature.count == Int(crypto_sign_BYTES), key.count == Int(crypto_sign_PUBLICKEYBYTES) else { return false }
        return Self.withBytes(message) { input, count in
            libsodium.crypto_sign_verify_detached(signature, input, UInt64(count), key) == 0
        }
    }

    /// The bytes of `data` and their count; never a null pointer (an empty file is signed too).
    private static func withBytes<T>(_ data: Data, _ body: (UnsafePointer<UInt8>, Int) -> T) -> T {
        if data.isEmpty {
            var none: UInt8 = 0
            return body(&none, 0)
        }
        return data.withUnsafeBytes { body($0.bindMemory(to: UInt8.self).baseAddress!, $0.count) }
    }
}

/// libsodium cannot be used: one line saying why.
public struct SodiumError: Error, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
