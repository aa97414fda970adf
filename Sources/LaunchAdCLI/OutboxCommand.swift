import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

/// `launchad outbox status|flush`: what is waiting to be delivered, and delivering it now.
public enum OutboxCommand {
    public static func run(_ o: OutboxOptions) -> Int32 {
        let problems = StderrEvents()
        guard let outbox = o.delivery.openOutbox(events: problems, network: RunNetwork(delivery: o.delivery)) else {
            return ExitCode.failure
        }
        if o.action == .flush {
            do {
                if try outbox.flush(lockWait: o.lockWait) == nil {
                    FileHandle.standardError.write(
                        TerminalText.line("another launchad process is sending from this outbox; try again later"))
                }
            } catch {
                FileHandle.standardError.write(TerminalText.line("cannot send from the outbox: \(error)"))
                return ExitCode.failure
            }
        }
        let status = outbox.status()
        print(status.json.serialized())
        return o.action == .flush && status.pending > 0 ? ExitCode.failure : ExitCode.success
    }
}

/// Prints an event's reason on stderr in one line (for commands without an event stream).
final class StderrEvents: EventSink, Sendable {
    func emit(_ event: AdEvent) {
        let reason: String
        switch event.event {
        case .outboxError(let r), .outboxUnavailable(let r), .reportRefused(let r): reason = r
        default: reason = event.jsonLine()
        }
        FileHandle.standardError.write(TerminalText.line("\(event.name): \(reason)"))
    }
}
