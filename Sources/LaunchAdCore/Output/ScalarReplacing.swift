extension String {
    /// This text with each scalar for which `replacement` gives a text replaced by it, the
    /// others kept: the one loop every escaper in this folder runs.
    func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let r = replacement(scalar) { out += r } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// This text after zeros, to `width` characters.
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
