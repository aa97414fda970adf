import Foundation
import LaunchAdCore
import LaunchAdDelivery

/// `--output FILE`, written whole or not at all: the report goes to a temporary file in FILE's
/// folder, made before any decoding (so an unwritable path fails at once), and is renamed over
/// FILE once complete. Whatever is not committed is removed.
final class ReportFile {
    let path: String
    private var temp: String?
    /// As readable as any file the user creates.
    private let mode: mode_t

    init(_ path: String) throws {
        self.path = path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw UsageError("--output: cannot write \(path): it is a folder")
        }
        let url = URL(fileURLWithPath: path)
        var template = Array((url.deletingLastPathComponent().path + "/.\(url.lastPathComponent).XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw Self.failure(path) }
        let mask = umask(0)
        umask(mask)
        mode = 0o666 & ~mask
        close(fd)
        temp = String(cString: template)
    }

    deinit { if let temp { unlink(temp) } }

    /// Writes `text` and puts it in place.
    func commit(_ text: String) throws {
        guard let temp else { return }
        do { try AtomicFile.replace(path, with: Data(text.utf8), temporary: temp, mode: mode) } catch {
            throw UsageError("--output: \(error.description)")
        }
        self.temp = nil
    }

    private static func failure(_ path: String) -> UsageError {
        UsageError("--output: cannot write \(path): \(String(cString: strerror(errno)))")
    }
}
