extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP optional whitespace, RFC 9110 §5.6.3).
    package func trimmingSpaces() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
