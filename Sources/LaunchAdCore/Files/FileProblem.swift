import Foundation

/// A file that cannot be read or written, said in one plain line: the path and the reason
/// ("no such file", "the folder /x does not exist", "permission denied"), never Foundation's
/// `Error Domain=NSCocoaErrorDomain Code=260 …` or "The operation could not be completed".
/// Every command turns its file-system errors into one of these (``init(_:path:access:)``), so
/// the same mistake reads the same everywhere.
public struct FileProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Whether the file was being read or written.
    public enum Access: Equatable, Sendable {
        /// Opened or read.
        case read
        /// Created or written.
        case write
    }

    /// The path as the user named it.
    public let path: String
    /// Reading or writing.
    public let access: Access
    /// Why, in a few plain words.
    public let reason: String

    /// A problem with `path` for `reason`.
    public init(path: String, access: Access, reason: String) {
        self.path = path; self.access = access; self.reason = reason
    }

    /// The problem `error` (a Foundation, POSIX or Cocoa error) describes for `path`.
    public init(_ error: Error, path: String, access: Access) {
        if let problem = error as? FileProblem {
            self = problem
        } else if let code = Self.errno(of: error) {
            self.init(errno: code, path: path, access: access)
        } else {
            self.init(path: path, access: access, reason: Self.plain(error))
        }
    }

    /// The problem a failed system call's `errno` describes for `path`.
    public init(errno code: Int32, path: String, access: Access) {
        self.init(path: path, access: access, reason: Self.reason(errno: code, path: path, access: access))
    }

    /// `cannot read PATH: REASON` or `cannot write PATH: REASON`, the path quoted as every
    /// message quotes a user's value (`TerminalText.quoted`).
    public var description: String { "cannot \(access == .read ? "read" : "write") \(TerminalText.quoted(path)): \(reason)" }

    /// The plain words for `code`; a missing file met while writing is its missing folder.
    public static func reason(errno code: Int32, path: String, access: Access) -> String {
        switch code {
        case ENOENT:
            guard access == .write else { return "no such file" }
            let folder = (path as NSString).deletingLastPathComponent
            return "the folder \(folder.isEmpty ? "." : folder) does not exist"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a folder"
        case ENOTDIR: return "a part of the path is not a folder"
        case ENOSPC: return "no space left on the device"
        case EDQUOT: return "over the disk quota"
        case EROFS: return "read-only file system"
        case ELOOP: return "too many symbolic links"
        case ENAMETOOLONG: return "the name is too long"
        case EEXIST: return "it already exists"
        case EBUSY, ETXTBSY: return "the file is busy"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    /// The errno behind `error`: a POSIX error's own, a Cocoa file error's underlying one, or
    /// the one its code stands for.
    static func errno(of error: Error) -> Int32? {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
        if let under = ns.userInfo[NSUnderlyingErrorKey] as? NSError, under.domain == NSPOSIXErrorDomain {
            return Int32(under.code)
        }
        guard ns.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteFileExists: return EEXIST
        case .fileReadTooLarge: return EFBIG
        default: return nil
        }
    }

    /// Any other error's own words, without Foundation's domain-and-code wrapping.
    static func plain(_ error: Error) -> String {
        let ns = error as NSError
        // A Swift error says itself; Foundation's say their reason.
        guard [NSCocoaErrorDomain, NSPOSIXErrorDomain, NSURLErrorDomain].contains(ns.domain) else { return "\(error)" }
        let text = ns.localizedFailureReason ?? ns.localizedDescription
        guard text.isEmpty || text.hasPrefix("The operation could not be completed") else { return text }
        return "an unexpected error (\(ns.domain) \(ns.code))"
    }
}
