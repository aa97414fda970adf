import Foundation
import LaunchAdCore
import XCTest

/// VAST documents as ad servers write them: 2.0 to 4.3, namespaced or not, CDATA with whitespace.
final class VASTParserTests: XCTestCase {
    static func inline(version: String = "4.2", ns: Bool = false, linearAttrs: String = #"skipoffset="00:00:05""#) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <VAST version="\(version)"\(ns ? #" xmlns="http://www.iab.com/VAST""# : "")>
          <Ad id="ad-1">
            <InLine>
              <AdSystem version="1">Acme</AdSystem>
              <AdTitle>  Spring sale  </AdTitle>
              <Impression id="i"><![CDATA[
                  https://track.example/imp?t=[TIMESTAMP]
              ]]></Impression>
              <Error><![CDATA[https://track.example/err?code=[ERRORCODE]]]></Error>
              <Creatives>
                <Creative id="c1">
                  <UniversalAdId idRegistry="ad-id.org">CNPA0484000H</UniversalAdId>
                  <Linear \(linearAttrs)>
                    <Duration>00:00:15.500</Duration>
                    <TrackingEvents>
                      <Tracking event="start"><![CDATA[https://track.example/start]]></Tracking>
                      <Tracking event="progress" offset="00:00:03"><![CDATA[https://track.example/p3]]></Tracking>
                      <Tracking event="progress" offset="50%"><![CDATA[https://track.example/p50]]></Tracking>
                    </TrackingEvents>
                    <VideoClicks>
                      <ClickThrough><![CDATA[ https://shop.example/sale ]]></ClickThrough>
                      <ClickTracking><![CDATA[https://track.example/click]]></ClickTracking>
                    </VideoClicks>
                    <MediaFiles>
                      <MediaFile delivery="progressive" type="video/mp4" width="1280" height="720" bitrate="2000" codec="avc1.4D401F, mp4a.40.2">
                        <![CDATA[https://cdn.example/ad-720.mp4]]>
                      </MediaFile>
                      <MediaFile delivery="progressive" type="application/javascript" apiFramework="VPAID" width="640" height="360">https://cdn.example/vpaid.js</MediaFile>
                    </MediaFiles>
                  </Linear>
                </Creative>
              </Creatives>
            </InLine>
          </Ad>
        </VAST>
        """
    }

    func testReadsAnInLineAdWithCDATAAndWhitespace() throws {
        let doc = try VASTParser.parse(Data(Self.inline().utf8), budget: VASTLimits.budget(seconds: 5))
        XCTAssertEqual(doc.version, "4.2")
        let ad = try XCTUnwrap(doc.ads.first)
        XCTAssertEqual(ad.id, "ad-1")
        XCTAssertEqual(ad.adSystem, "Acme")
        XCTAssertEqual(ad.adTitle, "Spring sale")
        XCTAssertEqual(ad.impressions, ["https://track.example/imp?t=[TIMESTAMP]"])
        XCTAssertEqual(ad.errors, ["https://track.example/err?code=[ERRORCODE]"])
        XCTAssertEqual(ad.universalAdId, "CNPA0484000H")
        let l = try XCTUnwrap(ad.linear)
        XCTAssertEqual(l.duration, 15.5)
        XCTAssertEqual(l.skipOffset, .seconds(5))
        XCTAssertEqual(l.clickThrough, "https://shop.example/sale")
        XCTAssertEqual(l.clickTracking, ["https://track.example/click"])
        XCTAssertEqual(l.mediaFiles.map(\.url), ["https://cdn.example/ad-720.mp4", "https://cdn.example/vpaid.js"])
        XCTAssertEqual(l.mediaFiles[0].codec, "avc1.4D401F, mp4a.40.2")
        XCTAssertEqual(l.mediaFiles[0].bitrate, 2000)
        XCTAssertEqual(l.mediaFiles[1].apiFramework, "VPAID")
        XCTAssertEqual(l.tracking.map(\.event), ["start", "progress", "progress"])
        XCTAssertEqual(l.tracking.compactMap(\.offset), [.seconds(3), .percent(50)])
    }

    func testEveryVersionNamespacedOrNot() throws {
        for v in ["2.0", "3.0", "4.0", "4.1", "4.2", "4.3"] {
            for ns in [false, true] {
                let doc = try VASTParser.parse(Data(Self.inline(version: v, ns: ns).utf8), budget: VASTLimits.budget(seconds: 5))
                XCTAssertEqual(doc.version, v)
                XCTAssertEqual(doc.ads.first?.linear?.mediaFiles.count, 2, "\(v) ns=\(ns)")
            }
        }
        // A prefixed namespace too.
        let prefixed =
            #"<v:VAST xmlns:v="http://www.iab.com/VAST" version="4.3"><v:Ad id="p"><v:InLine><v:AdSystem>A</v:AdSystem></v:InLine></v:Ad></v:VAST>"#
        XCTAssertEqual(try VASTParser.parse(Data(prefixed.utf8), budget: VASTLimits.budget(seconds: 5)).ads.first?.adSystem, "A")
    }

    func testBadDocumentsGiveTheirErrorCodes() {
        func code(_ xml: String) -> Int? {
            do { _ = try VASTParser.parse(Data(xml.utf8), budget: VASTLimits.budget(seconds: 5)); return nil } catch let e as VASTError {
                return e.code
            } catch { return -1 }
        }
        XCTAssertEqual(code("<VAST version=\"4.0\"><Ad>"), 100)
        XCTAssertEqual(code("not xml at all"), 100)
        XCTAssertEqual(code("<html><body/></html>"), 101)
        // An unsupported version is refused with the root Error URIs, to be told.
        let five = #"<VAST version="5.0"><Error>https://t.example/e?c=[ERRORCODE]</Error></VAST>"#
        XCTAssertThrowsError(try VASTParser.parse(Data(five.utf8), budget: VASTLimits.budget(seconds: 5))) { e in
            XCTAssertEqual((e as? VASTDocumentRefusal)?.error.code, 102)
            XCTAssertEqual((e as? VASTDocumentRefusal)?.errorURIs, ["https://t.example/e?c=[ERRORCODE]"])
        }
        // No version and no ad: an empty answer (303 when played), not a version error.
        XCTAssertEqual(
            try VASTParser.parse(Data("<VAST><Error>https://t.example/e</Error></VAST>".utf8), budget: VASTLimits.budget(seconds: 5))
                .errors, ["https://t.example/e"])
    }

    /// A malformed value inside one <Ad> fails that ad alone, with its Error URIs; the others are read.
    func testAMalformedValueFailsItsAdOnly() throws {
        func doc(_ bad: String) throws -> VASTDocument {
            try VASTParser.parse(
                Data(
                    #"<VAST version="4.0"><Ad id="bad"><Error>https://t.example/bad</Error>\#(bad)</Ad><Ad id="good"><InLine><AdSystem>A</AdSystem></InLine></Ad></VAST>"#
                        .utf8), budget: VASTLimits.budget(seconds: 5))
        }
        for bad in [
            #"<InLine><Creatives><Creative><Linear skipoffset="soon"/></Creative></Creatives></InLine>"#,
            #"<InLine><Creatives><Creative><Linear><Duration>half a minute</Duration></Linear></Creative></Creatives></InLine>"#,
            #"<InLine><Creatives><Creative><Linear><TrackingEvents><Tracking event="progress" offset="later">https://t.example/p</Tracking></TrackingEvents></Linear></Creative></Creatives></InLine>"#,
            "<Wrapper><AdSystem>W</AdSystem></Wrapper>", "<Nothing/>"
        ] {
            let d = try doc(bad)
            XCTAssertEqual(d.ads.map(\.id), ["bad", "good"], bad)
            XCTAssertEqual(d.ads[0].problem?.code, 101, bad)
            XCTAssertNil(d.ads[1].problem, bad)
        }
        XCTAssertEqual(try doc("<InLine/>").ads[0].errors, [], "an <Error> outside InLine/Wrapper is not the ad's")
    }

    /// What real servers send, read as meant and each reading noted under the rule that names it.
    func testLenientReadingsAreNoted() throws {
        let xml = """
            <VAST version=" 2.0 "><Ad id="v2"><InLine><AdSystem>Old</AdSystem><impression>https://t.example/imp</impression>
            <Creatives><Creative><Linear skipoffset=" 00:00:05 "><Duration>30</Duration>
            <MediaFiles><mediaFile type="video/mp4" width="640" height="360" delivery="progressive">https://c.example/a.mp4</mediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        let d = try VASTParser.parse(Data(xml.utf8), budget: VASTLimits.budget(seconds: 5))
        XCTAssertEqual(d.version, "2.0")
        let ad = try XCTUnwrap(d.ads.first)
        XCTAssertNil(ad.problem)
        XCTAssertEqual(ad.impressions, ["https://t.example/imp"])
        XCTAssertEqual(ad.linear?.duration, 30)
        XCTAssertEqual(ad.linear?.skipOffset, .seconds(5))
        XCTAssertEqual(ad.linear?.mediaFiles.map(\.url), ["https://c.example/a.mp4"])
        XCTAssertEqual(Set((d.notes + ad.notes).map(\.rule)), ["element_case", "value_whitespace", "duration_format"])
        XCTAssertEqual(
            try VASTParser.parse(Data("<VAST><Ad><InLine/></Ad></VAST>".utf8), budget: VASTLimits.budget(seconds: 5)).notes.map(\.rule),
            ["vast_version"])
        let odd = try VASTParser.parse(
            Data(#"<VAST version="4.0"><Ad sequence="first"><InLine/></Ad></VAST>"#.utf8), budget: VASTLimits.budget(seconds: 5)
        ).ads[0]
        XCTAssertNil(odd.sequence, "a sequence that is not a number: a standalone ad")
        XCTAssertEqual(odd.notes.map(\.rule), ["ad_sequence"])
    }

    /// VAST 2's `<VASTAdTagURL><URL>`, and a wrapper with several Linear creatives: all their tracking.
    func testLegacyWrapperURLAndEveryLinearOfAWrapper() throws {
        let xml = """
            <VAST version="2.0"><Ad><Wrapper><AdSystem>W</AdSystem><VASTAdTagURL><URL><![CDATA[inline.xml]]></URL></VASTAdTagURL>
            <Creatives><Creative><Linear><TrackingEvents><Tracking event="start">https://t.example/s1</Tracking></TrackingEvents></Linear></Creative>
            <Creative><Linear><TrackingEvents><Tracking event="start">https://t.example/s2</Tracking></TrackingEvents></Linear></Creative></Creatives>
            </Wrapper></Ad></VAST>
            """
        let ad = try XCTUnwrap(try VASTParser.parse(Data(xml.utf8), budget: VASTLimits.budget(seconds: 5)).ads.first)
        XCTAssertEqual(ad.wrapper?.tagURI, "inline.xml")
        XCTAssertEqual(ad.linear?.tracking.map(\.url), ["https://t.example/s1", "https://t.example/s2"])
        XCTAssertEqual(ad.notes.map(\.rule), ["wrapper_uri"])
    }

    /// Issue 20: nesting, encodings and parse time are bounded (each a VAST 100).
    func testDepthEncodingAndTimeAreBounded() {
        func code(_ data: Data, seconds: Double = 5) -> Int? {
            do { _ = try VASTParser.parse(data, budget: VASTLimits.budget(seconds: seconds)); return nil } catch let e as VASTError {
                return e.code
            } catch {
                return -1
            }
        }
        // 100,000 deep (700 kB): refused at depth 64, nothing freed recursively that deep.
        let deep = Data(
            ("<VAST version=\"4.0\">" + String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000) + "</VAST>")
                .utf8)
        XCTAssertEqual(code(deep), 100)
        let sixty = Data(
            ("<VAST version=\"4.0\">" + String(repeating: "<a>", count: 62) + String(repeating: "</a>", count: 62) + "</VAST>").utf8)
        XCTAssertNil(code(sixty), "64 levels are fine")
        // UTF-7 would turn +ADwAIQ- into <! past the DOCTYPE check: any encoding but UTF-8 is refused.
        for enc in ["UTF-7", "utf-16", "ISO-8859-1", "x"] {
            XCTAssertEqual(code(Data("<?xml version=\"1.0\" encoding=\"\(enc)\"?>+ADwAIQ-DOCTYPE<VAST version=\"4.0\"/>".utf8)), 100, enc)
        }
        XCTAssertNil(code(Data("<?xml version='1.0' encoding='utf-8'?><VAST version=\"4.0\"/>".utf8)))
        // A deadline already past stops the parse.
        let long = Data(("<VAST version=\"4.0\">" + String(repeating: "<Ad><InLine/></Ad>", count: 5000) + "</VAST>").utf8)
        XCTAssertEqual(code(long, seconds: -1), 100)
        XCTAssertNil(code(long, seconds: 60))
    }

    func testEntitiesAndDoctypesAreRefused() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
             <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
            <VAST version="4.0"><Ad><InLine><AdTitle>&lol3;</AdTitle></InLine></Ad></VAST>
            """
        let external = """
            <?xml version="1.0"?>
            <!doctype VAST [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <VAST version="4.0"><Ad><InLine><AdTitle>&xxe;</AdTitle></InLine></Ad></VAST>
            """
        for xml in [laughs, external] {
            XCTAssertThrowsError(try VASTParser.parse(Data(xml.utf8), budget: VASTLimits.budget(seconds: 5))) { e in
                XCTAssertEqual((e as? VASTError)?.code, 100)
                XCTAssertFalse("\(e)".contains("root:"), "nothing of /etc/passwd may appear")
            }
        }
    }

    /// FoundationXML crashes on these (the fuzz target found them): they never reach it.
    func testInputsThatCrashFoundationXMLAreRefused() {
        for bytes in [
            Data("<?x.?>\n<VAST version=\"4.0\"/>".utf8), Data("<?xml version=\"1.0\"?><?pi ?><VAST version=\"4.0\"/>".utf8),
            Data([0x3C] + [UInt8](repeating: 0xFF, count: 40) + Array("?xml version=\"1.0\"?>".utf8)),
            Data("<VAST version=\"4.0\">\u{0}</VAST>".utf8)
        ] {
            XCTAssertThrowsError(try VASTParser.parse(bytes, budget: VASTLimits.budget(seconds: 5))) {
                XCTAssertEqual(($0 as? VASTError)?.code, 100)
            }
        }
        XCTAssertNoThrow(
            try VASTParser.parse(
                Data("<?xml version=\"1.0\"?><?keep data?><VAST version=\"4.0\"/>".utf8), budget: VASTLimits.budget(seconds: 5)))
    }

    func testWrapperAttributes() throws {
        let xml =
            #"<VAST version="4.1"><Ad id="w"><Wrapper followAdditionalWrappers="false" allowMultipleAds="true" fallbackOnNoAd="0"><AdSystem>W</AdSystem><VASTAdTagURI><![CDATA[ https://ads.example/next.xml ]]></VASTAdTagURI><Impression>https://t.example/w-imp</Impression></Wrapper></Ad></VAST>"#
        let ad = try XCTUnwrap(try VASTParser.parse(Data(xml.utf8), budget: VASTLimits.budget(seconds: 5)).ads.first)
        XCTAssertEqual(ad.wrapper?.tagURI, "https://ads.example/next.xml")
        XCTAssertEqual(ad.wrapper?.followAdditionalWrappers, false)
        XCTAssertEqual(ad.wrapper?.allowMultipleAds, true)
        XCTAssertEqual(ad.wrapper?.fallbackOnNoAd, false)
        XCTAssertEqual(ad.impressions, ["https://t.example/w-imp"])
    }

    func testSniffingTheRootElement() {
        XCTAssertTrue(VASTParser.looksLikeVAST(Data("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- tag -->\n<VAST version=\"3.0\">".utf8)))
        XCTAssertTrue(VASTParser.looksLikeVAST(Data("<vast:VAST xmlns:vast=\"x\">".utf8)))
        XCTAssertFalse(VASTParser.looksLikeVAST(Data("<html><VAST>".utf8)))
        XCTAssertFalse(VASTParser.looksLikeVAST(Data([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70])))
    }

    func testOffsets() {
        XCTAssertEqual(VASTOffset(parsing: "00:00:05.250"), .seconds(5.25))
        XCTAssertEqual(VASTOffset(parsing: "01:02:03"), .seconds(3723))
        XCTAssertEqual(VASTOffset(parsing: "25%"), .percent(25))
        XCTAssertNil(VASTOffset(parsing: "5"))
        XCTAssertNil(VASTOffset(parsing: "00:61:00"))
        XCTAssertNil(VASTOffset(parsing: "150%"))
        XCTAssertNil(VASTOffset(parsing: "9999999999999999:00:00"), "no overflow (found by the fuzz target)")
        XCTAssertEqual(VASTOffset.percent(25).milliseconds(of: 10_000), 2500)
        XCTAssertEqual(VASTOffset.seconds(3).label, "00:00:03.000")
    }
}
