import SwitchyardCore

/// A parsed `Content-Range: bytes S-E/T` (or `…/*`) header of a `206` response.
struct ContentRange: Equatable {
    /// First byte offset.
    var start: Int64
    /// Last byte offset (inclusive).
    var end: Int64
    /// The whole representation's length, when the server gives it.
    var total: Int64?

    /// Parses `value`; `nil` for anything else (including unsatisfied `bytes */T`).
    init?(_ value: String?) {
        guard let value else { return nil }
        let text = value.split(separator: " ", maxSplits: 1)
        guard text.count == 2, text[0].lowercased() == "bytes" else { return nil }
        let rangeAndTotal = text[1].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard rangeAndTotal.count == 2 else { return nil }
        let bounds = rangeAndTotal[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start >= 0, end >= start else {
            return nil
        }
        self.start = start
        self.end = end
        if rangeAndTotal[1] == "*" {
            total = nil
        } else {
            guard let total = Int64(rangeAndTotal[1]), total > end else { return nil }
            self.total = total
        }
    }
}
