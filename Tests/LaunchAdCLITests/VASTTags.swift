import Foundation
import LaunchAdTestSupport

/// VAST documents for the end-to-end tests, in the shapes ad servers send: every tracking URI
/// points at the test nginx's `/track/` endpoint, named by ad and event.
enum VASTTags {
    static func tracking(_ track: String, _ id: String, _ events: [String]) -> String {
        events.map { #"<Tracking event="\#($0)"><![CDATA[\#(track)/\#(id)/\#($0)?cb=[CACHEBUSTING]]]></Tracking>"# }.joined(separator: "\n")
    }

    static func mediaFile(_ url: String, width: Int = 320, height: Int = 240, type: String = "video/mp4", extra: String = "") -> String {
        #"<MediaFile delivery="progressive" type="\#(type)" width="\#(width)" height="\#(height)" \#(extra)><![CDATA[ \#(url) ]]></MediaFile>"#
    }

    /// An InLine ad: impression, error, the quartile events, click tracking and a ClickThrough.
    static func inlineAd(
        id: String, track: String, media: [String], sequence: Int? = nil, skipoffset: String? = nil,
        events: [String] = [
            "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
            "pause", "resume", "mute", "unmute", "skip", "closeLinear"
        ],
        extraTracking: String = "", clickThrough: String = "https://shop.example/sale",
        duration: String = "00:00:02", expires: Int? = nil
    ) -> String {
        """
        <Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")>
          <InLine>
            <AdSystem>LaunchAd tests</AdSystem>
            <AdTitle>\(id)</AdTitle>\(expires.map { "\n<Expires>\($0)</Expires>" } ?? "")
            <Impression><![CDATA[
              \(track)/\(id)/impression?ts=[TIMESTAMP]&cb=[CACHEBUSTING]&asset=[ASSETURI]&size=[PLAYERSIZE]&lat=[LIMITADTRACKING]
            ]]></Impression>
            <Error><![CDATA[\(track)/\(id)/error?code=[ERRORCODE]]]></Error>
            <Creatives><Creative id="\(id)-c">
              <UniversalAdId idRegistry="ad-id.org">\(id.uppercased())0001</UniversalAdId>
              <Linear\(skipoffset.map { " skipoffset=\"\($0)\"" } ?? "")>
                <Duration>\(duration)</Duration>
                <TrackingEvents>
                \(tracking(track, id, events))
                \(extraTracking)
                </TrackingEvents>
                <VideoClicks>
                  <ClickThrough><![CDATA[\(clickThrough)]]></ClickThrough>
                  <ClickTracking><![CDATA[\(track)/\(id)/click?ph=[ADPLAYHEAD]]]></ClickTracking>
                </VideoClicks>
                <MediaFiles>\(media.joined(separator: "\n"))</MediaFiles>
              </Linear>
            </Creative></Creatives>
          </InLine>
        </Ad>
        """
    }

    static func wrapperAd(id: String, track: String, next: String, attributes: String = "") -> String {
        """
        <Ad id="\(id)"><Wrapper \(attributes)>
          <AdSystem>LaunchAd tests wrapper</AdSystem>
          <VASTAdTagURI><![CDATA[\(next)]]></VASTAdTagURI>
          <Impression><![CDATA[\(track)/\(id)/impression]]></Impression>
          <Error><![CDATA[\(track)/\(id)/error?code=[ERRORCODE]]]></Error>
          <Creatives><Creative><Linear><TrackingEvents>
            \(tracking(track, id, ["start", "complete"]))
          </TrackingEvents></Linear></Creative></Creatives>
        </Wrapper></Ad>
        """
    }

    static func document(version: String = "4.2", namespaced: Bool = false, _ ads: [String], rootError: String? = nil) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <VAST version="\(version)"\(namespaced ? #" xmlns="http://www.iab.com/VAST""# : "")>
        \(rootError.map { "<Error><![CDATA[\($0)]]></Error>" } ?? "")
        \(ads.joined(separator: "\n"))
        </VAST>
        """
    }
}

extension Nginx {
    /// `/track/` requests after the first `from` (without the `/track/` prefix), waiting up to
    /// 20 s until `done` holds: beacons go out from the outbox's thread, after the run's events
    /// (every caller waits for requests to come, so the wait ends as soon as they have).
    func tracked(from: Int = 0, until done: ([String]) -> Bool) -> [String] {
        var got: [String] = []
        Wait.until(timeout: 20) {
            got = Array(tracked.dropFirst(from)).map { String($0.dropFirst("/track/".count)) }
            return done(got)
        }
        return got
    }
}
