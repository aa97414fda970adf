/// Which of several caption files (one per language) to show: the one `--caption-lang` asks
/// for, else the system locale's, else the first. A tag matches on its primary language when
/// no file has the exact tag (`pt-BR` asked, `pt` offered).
public enum CaptionLanguage {
    /// `en`, `pt-BR`, `zh-Hant`: letters, digits and hyphens, a 2-3 letter primary subtag.
    public static func isTag(_ raw: String) -> Bool {
        let parts = raw.split(separator: "-", omittingEmptySubsequences: false)
        guard raw.count <= 35, let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// The language of a POSIX locale value (`LC_ALL`, `LC_MESSAGES`, `LANG`): `en_US.UTF-8`
    /// is `en-US`; `C` and `POSIX` name none.
    public static func fromLocale(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        let base = value.split(separator: ".").first.map(String.init) ?? value
        let tag = (base.split(separator: "@").first.map(String.init) ?? base).replacingUnderscores()
        guard tag != "C", tag != "POSIX", isTag(tag) else { return nil }
        return tag
    }

    /// The index of the file to show among files in `languages` (nil: unstated), or nil for none.
    public static func choose(_ languages: [String?], preferred: String?, locale: String?) -> Int? {
        guard !languages.isEmpty else { return nil }
        for wanted in [preferred, locale].compactMap({ $0 }) {
            if let i = languages.firstIndex(where: { $0.map { same($0, wanted) } ?? false }) { return i }
            let primary = primaryTag(wanted)
            if let i = languages.firstIndex(where: { $0.map { primaryTag($0) == primary } ?? false }) { return i }
        }
        return 0
    }

    static func same(_ a: String, _ b: String) -> Bool { a.lowercased().replacingUnderscores() == b.lowercased().replacingUnderscores() }
    /// The primary language, as ISO 639-1 when it has one: MP4 and Matroska tracks say `eng`
    /// (ISO 639-2), people and VAST say `en`.
    public static func primaryTag(_ tag: String) -> String {
        let primary = String(tag.lowercased().replacingUnderscores().split(separator: "-").first ?? "")
        return twoLetter[primary] ?? primary
    }

    /// ISO 639-2 (bibliographic and terminology) codes of widely captioned languages.
    static let twoLetter: [String: String] = [
        "eng": "en", "spa": "es", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "ita": "it", "por": "pt", "nld": "nl",
        "dut": "nl", "rus": "ru", "pol": "pl", "tur": "tr", "ara": "ar", "heb": "he", "hin": "hi", "jpn": "ja", "kor": "ko",
        "zho": "zh", "chi": "zh", "vie": "vi", "tha": "th", "ind": "id", "swe": "sv", "nor": "no", "dan": "da", "fin": "fi",
        "ces": "cs", "cze": "cs", "ell": "el", "gre": "el", "hun": "hu", "ron": "ro", "rum": "ro", "ukr": "uk"
    ]
}

private extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
