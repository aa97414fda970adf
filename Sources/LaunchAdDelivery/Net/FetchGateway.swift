/// The one way launchad reads from the network: a `FetchRequest` (whose reach has no default)
/// handed to a `Fetcher` (`HTTPClient`, the only code that makes a `CurlTransfer`). The files
/// below are every place that builds a request, each with the reach it states;
/// `FetchGatewayTests` fails when a file builds one and is not listed here, when curl is driven
/// from anywhere but `CurlTransfer`, or when another HTTP stack (URLSession) appears, so a new
/// fetch cannot be added without being seen; `FetchEntryPointTests` drives each one with a
/// public document's URL toward internal addresses (and lists apart those that fetch only what
/// the user named), so a new entry point also needs its probe there.
public enum FetchGateway {
    /// Source files (under `Sources/`) that build a `FetchRequest`, and whose reach each states.
    public static let entryPoints: [String: String] = [
        "LaunchAdDelivery/Net/HTTPByteSource.swift": "the opener's: the reach of the document naming the streamed creative",
        "LaunchAdDelivery/VAST/VASTResolver.swift": "the tag's (the user's, or a manifest's), then each wrapper's document",
        "LaunchAdDelivery/VAST/TagSniffer.swift": "any: the URL on the command line",
        "LaunchAdDelivery/Prefetch/Prefetcher.swift": "the manifest's, for its creatives and captions",
        "LaunchAdDelivery/Prefetch/Prefetcher+Manifest.swift": "any: --manifest is the user's",
        "LaunchAdDelivery/Prefetch/Prefetcher+Signature.swift": "any: the signature beside --manifest (URL.minisig), the user's",
        "LaunchAdDelivery/Prefetch/Prefetcher+VAST.swift": "the VAST chain's, for a manifest ad's media file",
        "LaunchAdDelivery/Outbox/OutboxJob.swift": "each item's, kept on disk with it",
        "LaunchAdDelivery/Outbox/ClickHouseSender.swift":
            "each record item's, kept on disk with it (a ClickHouse batch): --report's any, a manifest's collector the manifest's",
        "LaunchAdDelivery/Fleet/ClickHouseClient.swift": "any: --clickhouse is the user's",
        "LaunchAdDelivery/Captions/CaptionLoader.swift": "the caller's: the ad's chain, the manifest's, or the user's",
        "LaunchAdCLI/VAST/ValidateVAST.swift": "the resolved ad's chain (public-only when unknown)",
        "LaunchAdEngine/VAST/VASTIcons.swift": "the ad's chain",
        "LaunchAdCLI/ScheduleCommand.swift": "any: --manifest is the user's"
    ]
}
