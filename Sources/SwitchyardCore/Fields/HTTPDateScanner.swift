/// Reads an HTTP-date's bytes from left to right: literal text, fixed-width runs of digits, and
/// names from a list, compared byte for byte (HTTP-date is case-sensitive, RFC 9110 §5.6.7), or
/// with ASCII letters matched regardless of case when asked (a cache recipient, RFC 9111 §4.2).
/// Every read either consumes what it matched and succeeds, or fails (the caller then gives up).
struct HTTPDateScanner {
    private let bytes: Substring.UTF8View
    private var index: Substring.UTF8View.Index
    private let ignoresCase: Bool

    /// A scanner at the start of `text`.
    /// - Parameters:
    ///   - text: The value to read.
    ///   - ignoringCase: Whether literals and names match ASCII letters of either case.
    init(_ text: Substring, ignoringCase: Bool = false) {
        bytes = text.utf8
        index = bytes.startIndex
        ignoresCase = ignoringCase
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { index == bytes.endIndex }

    /// Reads `literal` if the text continues with exactly it.
    /// - Parameter literal: E.g. `", "` or `"GMT"`.
    /// - Returns: Whether it was there.
    mutating func skip(_ literal: String) -> Bool {
        var cursor = index
        for expected in literal.utf8 {
            guard cursor != bytes.endIndex else { return false }
            let byte = bytes[cursor]
            guard byte == expected || (ignoresCase && Self.lowercased(byte) == Self.lowercased(expected)) else {
                return false
            }
            bytes.formIndex(after: &cursor)
        }
        index = cursor
        return true
    }

    /// Reads a run of ASCII digits, at most `digits.upperBound` long, as a number.
    /// - Parameter digits: How many digits are allowed, e.g. `2...2` for `2DIGIT`.
    /// - Returns: The value, or `nil` when fewer than `digits.lowerBound` digits follow.
    mutating func number(digits: ClosedRange<Int>) -> Int? {
        var cursor = index
        var value = 0
        var count = 0
        while count < digits.upperBound, cursor != bytes.endIndex {
            let byte = bytes[cursor]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            count += 1
            bytes.formIndex(after: &cursor)
        }
        guard count >= digits.lowerBound else { return nil }
        index = cursor
        return value
    }

    /// `byte` with an ASCII upper-case letter made lower-case.
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Reads the first of `names` the text continues with.
    /// - Parameter names: The candidates, e.g. the month names.
    /// - Returns: The position of the name read in `names`, or `nil` when none follows.
    mutating func name(among names: [String]) -> Int? {
        for (position, name) in names.enumerated() where skip(name) { return position }
        return nil
    }
}
