import Foundation
import LaunchAdCore

/// Opens a click-through link in the desktop's browser with xdg-open, without waiting for it;
/// a missing or failing xdg-open is reported as an event.
enum LinkOpener {
    static func open(_ link: String, events: EventSink) {
        guard Link.isAllowed(link) else { return }
        @Sendable func failed(_ why: String) {
            events.emit(.linkOpenFailed(link: link, message: why))
        }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let exe = path.map({ "\($0)/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return failed("xdg-open is not installed (Debian package xdg-utils)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = [link]
        p.environment = ChildEnvironment.variables
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.terminationHandler = { p in
            if p.terminationStatus != 0 { failed("xdg-open exited with status \(p.terminationStatus)") }
        }
        do { try p.run() } catch { failed("\(error)") }
    }
}
