import LaunchAdCore
import LaunchAdEngine

/// `launchad outbox status|flush`.
public struct OutboxOptions: Equatable, Sendable {
    public enum Action: String, CaseIterable, Sendable { case status, flush }
    public var action: Action = .status
    public var delivery = DeliveryOptions()
    /// How long `flush` waits for another process that is sending.
    public var lockWait: Double = 10

    public init() {}

    public static let help = """
        usage: launchad outbox status|flush [options]
        status: prints the outbox as JSON (pending beacons and records, oldest age, what was delivered,
        retried, expired, dropped, refused; per host). flush: sends everything pending now, each once
        (retries not yet due included), then prints the status.
        \(DeliveryOptions.help)
          --allow-http           allow plain http to any host
        Exit codes: 0 nothing left pending (status: always), 1 something is still pending or the
        outbox cannot be opened, 2 usage.
        """

    public static func parse(_ args: [String]) throws -> OutboxOptions? {
        var r = ArgumentReader(args)
        var o = OutboxOptions()
        while let opt = r.nextOption() {
            if try o.delivery.apply(opt, &r) { continue }
            switch opt {
            case "--help": return nil
            case "--allow-http": try r.flag(opt); o.delivery.allowHTTP = true
            default: throw UsageError("unknown option \(opt) (see launchad outbox --help)")
            }
        }
        guard r.positionals.count == 1, let action = Action(rawValue: r.positionals[0]) else {
            throw UsageError(
                "outbox takes status or flush\(r.positionals.isEmpty ? "" : ", not '\(r.positionals.joined(separator: " "))'")")
        }
        o.action = action
        return o
    }
}
