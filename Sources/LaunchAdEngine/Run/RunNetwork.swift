import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdMedia

/// Every network client one run makes, from that run's options: plain http and internal
/// addresses are allowed or not per run, never by a process-wide switch, so two embedded ads in
/// one application never decide each other's reach.
public struct RunNetwork: Sendable {
    public var connectTimeout: Double
    public var timeout: Double
    public var retries: Int
    public var maxCreativeBytes: Int64
    /// Plain http to any host (loopback always may).
    public var allowHTTP: Bool
    /// `--allow-private-network`: URLs named by remote documents may reach internal addresses.
    public var allowPrivateNetwork: Bool

    /// The cache's network (`prefetch`, `launch`): its timeouts, retries and creative cap.
    public init(_ o: PrefetchOptions) {
        connectTimeout = o.connectTimeout; timeout = o.timeout; retries = o.retries; maxCreativeBytes = o.maxCreativeBytes
        allowHTTP = o.allowHTTP; allowPrivateNetwork = o.delivery.allowPrivateNetwork
    }

    /// `play`'s: the cache's defaults, with `play --allow-http` and `--allow-private-network`.
    public init(play o: PlayOptions, delivery: DeliveryOptions) {
        self.init(PrefetchOptions())
        allowHTTP = delivery.allowHTTP || o.vast.allowHTTP
        allowPrivateNetwork = delivery.allowPrivateNetwork
    }

    /// The outbox's alone (`outbox flush`): `--allow-http` and `--allow-private-network` as given.
    public init(delivery: DeliveryOptions) {
        self.init(PrefetchOptions())
        allowHTTP = delivery.allowHTTP
        allowPrivateNetwork = delivery.allowPrivateNetwork
    }

    /// A client with these timeouts (the run's own by default) and the run's policy.
    public func client(connectTimeout: Double? = nil, totalTimeout: Double? = nil, maxRedirects: Int = 5) -> HTTPClient {
        HTTPClient(
            connectTimeout: connectTimeout ?? self.connectTimeout, totalTimeout: totalTimeout ?? timeout, maxRedirects: maxRedirects,
            allowHTTP: allowHTTP, allowPrivateNetwork: allowPrivateNetwork)
    }

    /// The run's client, retried on transient failures (manifests and creatives).
    public var fetcher: Fetcher { RetryingFetcher(client(), retries: retries) }

    /// Streams (`play URL`, a first launch's creative) are read by the same client, under the
    /// same policy, never by FFmpeg's own network code. `reach`: the reach of the document (or
    /// user) that named what it opens.
    public func streaming(reach: Reach) -> NetworkOpener {
        HTTPByteSource.opener(client: client(), maxBytes: maxCreativeBytes, reach: reach)
    }

    /// A VAST document's, caption file's or icon's client: `seconds` for each whole fetch.
    public func documents(seconds: Double) -> HTTPClient { client(connectTimeout: seconds, totalTimeout: seconds) }
}
