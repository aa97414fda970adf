import LaunchAdCore
import LaunchAdEngine
import LaunchAdMedia

/// The caption tracks `validate` reports: the file's own text or CEA-608 track.
enum CaptionTracks {
    static func facts(of file: String) -> [CaptionFacts] {
        guard let found = try? EmbeddedCaptions.read(path: file) else { return [] }
        return [
            CaptionFacts(
                kind: found.codec, language: found.language, cues: found.cues.count, lastEndMs: found.cues.map(\.endMs).max(),
                track: CaptionTrack(found.cues))
        ]
    }
}
