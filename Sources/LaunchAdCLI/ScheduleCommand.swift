import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

/// `launchad schedule`: the manifest's ads judged at one moment as a launch would judge them.
public enum ScheduleCommand {
    public static func run(_ o: ScheduleOptions) -> Int32 {
        let parsed: ParsedManifest
        let store: CacheStore
        do {
            let url = try o.cache.manifestURL()
            let data: Data
            let limit = try o.cache.prefetchConfig(screen: o.screen).maxManifestBytes
            if url.isFileURL {
                do { data = try Data(contentsOf: url) } catch { throw FileProblem(error, path: o.cache.manifest, access: .read) }
            } else {
                let response = try RunNetwork(o.cache).fetcher.fetch(
                    FetchRequest(url: url, reach: .any, maxBytes: limit), progress: nil)
                guard response.status == 200 else { throw CacheError("HTTP \(response.status) for the manifest \(url.absoluteString)") }
                data = response.body
            }
            parsed = try ManifestParser.parse(data, base: url, budget: ManifestParser.budget(maxBytes: limit, seconds: o.cache.timeout))
            store = try CacheStore(directory: o.cache.cacheDirectory())
        } catch {
            return CLIError.report(error)
        }
        let index = store.readIndex()
        // A VAST ad's media files are known once a refresh has resolved its tag into the cache.
        let ads = parsed.manifest.ads.map { ad in ad.vast == nil ? ad : (index.record(for: ad.id)?.ad ?? ad) }
        let at = o.at ?? Date()
        let (winner, verdicts) = AdSelector.rank(
            ads, now: at, screen: o.screen, plays: index.plays ?? [:], systemZone: o.zone,
            isAvailable: { store.isAvailable($0, in: index) })
        let rejected = parsed.rejected.map { AdVerdict(id: $0.id, reason: "rejected: " + $0.reason) }
        if o.json {
            print(json(at: at, screen: o.screen, winner: winner, verdicts: verdicts, rejected: parsed.rejected).serialized())
        } else {
            print(winner.map { TerminalText.escaped($0.ad.id) } ?? "no ad would show")
            for v in verdicts + rejected where v.reason != nil {
                print("\(TerminalText.escaped(v.id)): \(TerminalText.escaped(v.reason!))")
            }
        }
        return winner == nil ? ExitCode.noAd : ExitCode.success
    }

    static func json(at: Date, screen: Size, winner: AdChoice?, verdicts: [AdVerdict], rejected: [RejectedAd]) -> JSONValue {
        .object([
            ("at", .string(PlayRecord.utc(at))),
            ("screen", .string("\(screen.width)x\(screen.height)")),
            ("winner", winner.map { .string($0.ad.id) } ?? .null),
            ("variant", winner.map { .string($0.variant.url.absoluteString) } ?? .null),
            ("ads", .array(verdicts.map { .object([("id", .string($0.id)), ("reason", $0.reason.map { .string($0) } ?? .null)]) })),
            (
                "rejected",
                .array(
                    rejected.map {
                        .object([
                            ("id", .string($0.id)), ("reason", .string($0.reason)),
                            ("field", $0.field.map { .string($0) } ?? .null)
                        ])
                    })
            )
        ])
    }
}
