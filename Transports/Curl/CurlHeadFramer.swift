import SwitchyardCore
import SwitchyardTransportKit

/// Collects the header lines libcurl delivers until a final head is complete, on the event-loop
/// thread, without parsing them: the caller's task parses the block (``CurlHeaderParser/parseHead(_:)``),
/// so the one loop thread spends its time on the wire rather than on header validation.
///
/// Interim (1xx other than 101) blocks are dropped by looking only at the status code's digits; a
/// malformed status line counts as final, so the parser reports it. The limits of
/// ``ResponseHeadRules`` are enforced as the lines arrive, so a giant head is refused before it
/// is buffered.
struct CurlHeadFramer {
    private var block: [UInt8] = []
    private var interim = false
    private var interimCount = 0

    /// A limit of ``ResponseHeadRules`` the head went past.
    enum Overflow: Error {
        /// The head is larger than ``ResponseHeadRules/maxHeadBytes``.
        case headTooLarge
        /// More interim responses than ``ResponseHeadRules/maxInterimResponses``.
        case tooManyInterimResponses

        /// The error to report for a head from `host`.
        func error(host: String) -> SwitchyardError {
            switch self {
            case .headTooLarge: ResponseHeadRules.headTooLarge(host: host)
            case .tooManyInterimResponses: ResponseHeadRules.tooManyInterimResponses(host: host)
            }
        }
    }

    /// Adds one line (with its line ending). Runs for every header line, so it names no host: the
    /// caller turns an ``Overflow`` into its error.
    /// - Parameter line: The raw bytes libcurl handed to the header callback.
    /// - Returns: The complete final block once `line` ended it, otherwise `nil`.
    /// - Throws: ``Overflow`` past ``ResponseHeadRules``' limits.
    mutating func consume(_ line: UnsafeRawBufferPointer) throws(Overflow) -> [UInt8]? {
        let startsBlock = block.isEmpty
        if startsBlock { block.reserveCapacity(512) }
        guard block.count + line.count <= ResponseHeadRules.maxHeadBytes else { throw .headTooLarge }
        block.append(contentsOf: line)
        if startsBlock {
            interim = Self.isInterimStatusLine(line)
            return nil
        }
        guard Self.isEmptyLine(line) else { return nil }
        if interim {
            interimCount += 1
            guard interimCount <= ResponseHeadRules.maxInterimResponses else { throw .tooManyInterimResponses }
            block.removeAll(keepingCapacity: true)
            return nil
        }
        defer { block = [] }
        return block
    }

    private static func isEmptyLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
    }

    /// `HTTP/<version> 1xx` other than `101` (which is final: the parser's rules refuse it).
    private static func isInterimStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")), space + 3 < line.count else { return false }
        guard line[space + 1] == UInt8(ascii: "1") else { return false }
        return !(line[space + 2] == UInt8(ascii: "0") && line[space + 3] == UInt8(ascii: "1"))
    }
}
