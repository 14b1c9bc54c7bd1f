extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP optional whitespace, RFC 9110 §5.6.3).
    ///
    /// Only U+0020 and U+0009 are removed — not line breaks or other Unicode whitespace, which are
    /// not optional whitespace in HTTP — so a field value or a parameter of one can be read as the
    /// RFCs say: `" gzip ;q=0.5\t".trimmingSpaces()` is `"gzip ;q=0.5"`.
    /// - Returns: The slice between the first and the last character that is neither a space nor a
    ///   tab; an empty slice (at the end of the text) when there is none.
    public func trimmingSpaces() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
