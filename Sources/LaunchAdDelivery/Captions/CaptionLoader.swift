import Foundation
import LaunchAdCore

/// Reads a caption file through the same fetch path (and URL rules) as creatives and VAST
/// media: https, plain http only for loopback or `--allow-http`, local files only when
/// regular; at most `CaptionFormat.maxBytes`; the URL held to `reach` (the reach of whoever
/// named it). The bytes are judged by the core's parsers within `budget`.
public enum CaptionLoader {
    public static func load(
        _ location: String, reach: Reach, fetcher: Fetcher, budget: ParseBudget, isCancelled: (@Sendable () -> Bool)? = nil
    ) -> Result<CaptionParse, CaptionError> {
        let url: URL
        if location.contains("://") {
            guard let u = URL(string: location) else { return .failure(CaptionError("not a URL: \(location)")) }
            url = u
        } else {
            url = URL(fileURLWithPath: location)
        }
        let data: Data
        do {
            let request = FetchRequest(url: url, reach: reach, maxBytes: Int64(budget.maxBytes), isCancelled: isCancelled)
            let response = try fetcher.fetch(request, progress: nil)
            guard (200..<300).contains(response.status) else {
                return .failure(CaptionError("the caption file answered HTTP \(response.status): \(location)"))
            }
            data = response.body
        } catch let e as FetchError {
            return .failure(
                CaptionError(e.message.contains("byte limit") ? "the caption file is over the \(budget.maxBytes)-byte limit" : e.message))
        } catch {
            return .failure(CaptionError("\(error)"))
        }
        do { return .success(try CaptionFormat.parse(data, budget: budget)) } catch let e as CaptionError { return .failure(e) } catch {
            return .failure(CaptionError("\(error)"))
        }
    }
}
