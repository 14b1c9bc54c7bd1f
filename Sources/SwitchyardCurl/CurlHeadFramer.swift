/// Collects the header lines libcurl delivers until a final head is complete, on the event-loop
/// thread, without parsing them: the caller's task parses the block (``CurlHeaderParser/parseHead(_:)``),
/// so the one loop thread spends its time on the wire rather than on header validation.
///
/// Interim (1xx) blocks are dropped by looking only at the first digit of the status code; a
/// malformed status line counts as final, so the parser reports it.
struct CurlHeadFramer {
    private var block: [UInt8] = []
    private var interim = false

    /// Adds one line (with its line ending).
    /// - Parameter line: The raw bytes libcurl handed to the header callback.
    /// - Returns: The complete final block once `line` ended it, otherwise `nil`.
    mutating func consume(_ line: UnsafeRawBufferPointer) -> [UInt8]? {
        let startsBlock = block.isEmpty
        if startsBlock { block.reserveCapacity(512) }
        block.append(contentsOf: line)
        if startsBlock {
            interim = Self.isInterimStatusLine(line)
            return nil
        }
        guard Self.isEmptyLine(line) else { return nil }
        if interim {
            block.removeAll(keepingCapacity: true)
            return nil
        }
        defer { block = [] }
        return block
    }

    private static func isEmptyLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
    }

    /// `HTTP/<version> 1…`: the code after the first space starts with 1.
    private static func isInterimStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")), space + 1 < line.count else { return false }
        return line[space + 1] == UInt8(ascii: "1")
    }
}
