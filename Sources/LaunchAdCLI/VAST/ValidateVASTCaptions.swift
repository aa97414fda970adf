import Foundation
import LaunchAdCore
import LaunchAdDelivery
import LaunchAdEngine

extension ValidateVAST {
    /// `validate --vast`: the caption files LaunchAd reads, fetched (with `reach`, the ad's
    /// chain's) and parsed (nil: not fetched), under the media files' rules: at most
    /// `VASTRules.maxCheckedMedia` per tag, their bytes taken from `budget`, the tag's download
    /// budget. How many readable files were left out is returned beside them.
    static func captions(_ files: [VASTCaptionFile], reach: Reach, budget: inout Int64, _ o: ValidateOptions) -> (
        files: [(file: VASTCaptionFile, read: Result<CaptionParse, CaptionError>?)], leftOut: Int
    ) {
        let client = HTTPClient(
            connectTimeout: o.vastTimeout, totalTimeout: o.vastTimeout, allowHTTP: o.allowHTTP, allowPrivateNetwork: o.allowPrivateNetwork)
        var out: [(file: VASTCaptionFile, read: Result<CaptionParse, CaptionError>?)] = []
        var leftOut = 0
        var fetched = 0
        for f in files {
            guard f.format != nil && Link.isAllowed(f.url) else { out.append((f, nil)); continue }
            guard fetched < VASTRules.maxCheckedMedia, budget > 0 else { leftOut += 1; continue }
            fetched += 1
            let parse = CaptionFormat.budget(seconds: o.vastTimeout, limitName: "--vast-timeout")
            let capped = ParseBudget(maxBytes: min(parse.maxBytes, Int(budget)), seconds: o.vastTimeout, limitName: "--vast-timeout")
            let read = CaptionLoader.load(f.url, reach: reach, fetcher: client, budget: capped)
            budget -= Int64(capped.maxBytes)
            out.append((f, read))
        }
        return (out, leftOut)
    }

}
