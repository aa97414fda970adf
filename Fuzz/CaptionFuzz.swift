// libFuzzer target: LaunchAdCore's caption reading on any bytes: WebVTT, SRT and TTML (the
// format sniffed from the content), then what the player does with the cues: which show at a
// time, wrapping and placing them. Built by scripts/fuzz.sh into LaunchAdCore's module.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func captionFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard
        let parsed = try? CaptionFormat.parse(
            Data(bytes: data, count: size), budget: CaptionFormat.budget(seconds: 5, limitName: "--vast-timeout"))
    else { return 0 }
    let layout = AdLayout(window: Size(width: 320, height: 240), mode: .fullscreen, skipStyle: .text)
    for cue in parsed.track.cues.prefix(50) {
        precondition(cue.endMs > cue.startMs && cue.startMs >= 0 && !cue.text.isEmpty, "a kept cue is timed and has text")
        precondition(cue.text.count <= CaptionText.maxCharacters)
        if let shown = parsed.track.text(atMs: cue.startMs) {
            precondition(shown.count <= CaptionTrack.maxShownCharacters, "what shows at once is bounded")
        }
        let lines = CaptionLayout.wrap(cue.text, maxWidth: 100, measure: { $0.count * 7 })
        let placed = CaptionLayout.place(lines: lines.map { Size(width: $0.count * 7, height: 12) }, layout: layout, font: 10)
        if let placed { precondition(placed.box.y >= layout.skipButton.maxY, "never over the skip button") }
    }
    return 0
}
