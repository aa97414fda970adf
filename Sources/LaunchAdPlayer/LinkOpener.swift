import Foundation
import LaunchAdCore

/// Opens a click-through link in the desktop's browser with xdg-open, without waiting for it.
enum LinkOpener {
    static func open(_ link: String, events: EventSink) {
        guard Link.isAllowed(link) else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["xdg-open", link]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch {
            events.emit(AdEvent("link_open_failed", tMs: ProcessClock.nowMs(), [("link", .string(link)), ("message", .string("\(error)"))]))
        }
    }
}
