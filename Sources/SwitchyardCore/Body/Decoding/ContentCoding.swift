package import HTTPTypes

/// A content coding (RFC 9110 §8.4.1) that Switchyard decodes itself, the same way on every
/// transport that hands it the encoded bytes.
package enum ContentCoding: Sendable, Hashable {
    /// `gzip` or `x-gzip` (RFC 1952); several concatenated members are one body.
    case gzip
    /// `deflate`: a zlib stream (RFC 1950), or a raw deflate stream as some servers send.
    case deflate

    /// The `Accept-Encoding` a transport sends when it decodes bodies itself and the request set none.
    package static let acceptEncoding = "gzip, deflate"

    /// More codings than this on one response are refused: no server needs them, and each layer
    /// multiplies the work a small hostile body can cause.
    package static let maxLayers = 3

    /// The codings of `fields`' `Content-Encoding`, in the order they were applied.
    ///
    /// - Returns: `[]` when the body is not encoded (no field, or only `identity`); `nil` when a
    ///   coding is one Switchyard does not decode (e.g. `br`): the body is then delivered as sent,
    ///   with its `Content-Encoding` intact, so nothing is silently altered.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for more than ``maxLayers`` codings.
    package static func codings(of fields: HTTPFields) throws(SwitchyardError) -> [ContentCoding]? {
        guard fields.contains(where: { $0.name == .contentEncoding }) else { return [] }  // the common case, no allocation
        var codings: [ContentCoding] = []
        for field in fields where field.name == .contentEncoding {
            for item in field.value.split(separator: ",") {
                switch item.trimmingSpaces().lowercased() {
                case "", "identity": continue
                case "gzip", "x-gzip": codings.append(.gzip)
                case "deflate": codings.append(.deflate)
                default: return nil
                }
            }
        }
        guard codings.count <= maxLayers else {
            throw .protocolViolation(
                "The response lists \(codings.count) content codings; at most \(maxLayers) are decoded,"
                    + " so the body was refused rather than delivered still encoded.")
        }
        return codings
    }
}
