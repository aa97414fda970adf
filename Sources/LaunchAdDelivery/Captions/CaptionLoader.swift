import Foundation
import LaunchAdCore

/// Reads a caption file through the same fetch path (and URL rules) as creatives and VAST
/// media: https, plain http only for loopback or `--allow-http`, local files only when
/// regular; at most `CaptionFormat.maxBytes`. The bytes are judged by the core's parsers.
public enum CaptionLoader {
    public static func load(_ location: String, fetcher: Fetcher) -> Result<CaptionParse, CaptionError> {
        let url: URL
        if location.contains("://") {
            guard let u = URL(string: location) else { return .failure(CaptionError("not a URL: \(location)")) }
            url = u
        } else {
            url = URL(fileURLWithPath: location)
        }
        let data: Data
        do {
            let response = try fetcher.fetch(FetchRequest(url: url, maxBytes: Int64(CaptionFormat.maxBytes)), progress: nil)
            guard (200..<300).contains(response.status) else {
                return .failure(CaptionError("the caption file answered HTTP \(response.status): \(location)"))
            }
            data = response.body
        } catch let e as FetchError {
            return .failure(
                CaptionError(
                    e.message.contains("byte limit") ? "the caption file is over the \(CaptionFormat.maxBytes)-byte limit" : e.message))
        } catch {
            return .failure(CaptionError("\(error)"))
        }
        do { return .success(try CaptionFormat.parse(data)) } catch let e as CaptionError { return .failure(e) } catch {
            return .failure(CaptionError("\(error)"))
        }
    }
}
