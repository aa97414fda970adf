/// The only names launchad writes in its cache folder. Anything else found there (a record
/// naming `../victim`, a stray file, a symlink) is not launchad's and is never followed or deleted.
public enum CacheNames {
    /// The Cache Directory Tagging convention's mark (https://bford.info/cachedir/): a folder
    /// holding it was made by launchad (backup tools skip it too).
    public static let tagFile = "CACHEDIR.TAG"
    /// The first line every cache tag file must start with, per the convention.
    public static let tagSignature = "Signature: 8a477f597d28d172789f06886806bc55"
    /// The whole `CACHEDIR.TAG` launchad writes: the signature and a comment saying who made it.
    public static let tagContents =
        tagSignature
        + "\n# This file marks a cache folder made by launchad.\n# For information about cache directory tags see https://bford.info/cachedir/\n"

    /// Extensions a creative may be stored under; anything else becomes mp4 or png.
    public static let knownExtensions: Set<String> = [
        "mp4", "m4v", "mov", "webm", "mkv", "png", "jpg", "jpeg", "gif", "webp", "bmp", "vtt", "srt", "ttml"
    ]

    /// Whether `s` is exactly 64 lowercase hex digits.
    public static func isSHA256(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `<64 lowercase hex>.<known extension>`: a file name in `objects/`.
    public static func isObjectName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && isSHA256(String(parts[0])) && knownExtensions.contains(String(parts[1]))
    }

    /// A record's `file` is acceptable only as `objects/<its own sha256>.<known extension>`.
    public static func isObjectPath(_ file: String, sha256: String) -> Bool {
        guard file.hasPrefix("objects/") else { return false }
        let name = String(file.dropFirst("objects/".count))
        return isObjectName(name) && name.hasPrefix(sha256 + ".")
    }

    /// Names launchad gives files in `tmp/`: `<pid>-<number>.part` (downloads) and
    /// `index-<pid>-<number>.json` (an index being written).
    public static func isTempName(_ name: String) -> Bool {
        func digitsDashDigits(_ s: Substring) -> Bool {
            let p = s.split(separator: "-", omittingEmptySubsequences: false)
            return p.count == 2 && p.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        }
        if name.hasSuffix(".part") { return digitsDashDigits(name.dropLast(5)) }
        if name.hasPrefix("index-") && name.hasSuffix(".json") { return digitsDashDigits(name.dropFirst(6).dropLast(5)) }
        return false
    }
}

extension CacheIndex {
    /// The index without records that name anything but their own object file (an ad whose
    /// creative lost its record that way is simply not available).
    public func keepingOnlyObjectRecords() -> CacheIndex {
        var copy = self
        copy.files = files.filter { CacheNames.isObjectPath($0.value.file, sha256: $0.key) }
        return copy
    }
}
