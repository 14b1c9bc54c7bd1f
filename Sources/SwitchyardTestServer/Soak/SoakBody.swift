/// The bodies of the `/soak/{id}?size=N` route: deterministic from the id and the size, so a
/// client checks every byte it is given against what it asked for (a body from another request,
/// shifted, short or padded never matches).
///
/// ```swift
/// let expected = SoakBody.bytes(id: "m-42", size: 4096)
/// #expect(response.body == expected)
/// #expect(response.head.headerFields[.init(SoakBody.digestHeader)!] == SoakBody.digest(of: expected))
/// ```
public enum SoakBody {
    /// The response field carrying the lowercase hex SHA-256 of the body the server sent.
    public static let digestHeader = "X-Soak-SHA256"
    /// The response field carrying the lowercase hex SHA-256 of the request body the server received.
    public static let requestDigestHeader = "X-Soak-Request-SHA256"
    /// The response field carrying which arrival of this id the request was (1 for the first).
    public static let arrivalHeader = "X-Soak-Arrival"
    /// The largest body the route serves (16 MiB).
    public static let maxSize = 16 << 20

    /// The `size` bytes of the body for `id`: a SplitMix64 stream seeded by a stable hash of the id.
    /// - Parameters:
    ///   - id: The request id.
    ///   - size: The body size.
    /// - Returns: The bytes.
    public static func bytes(id: String, size: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max(0, size))
        fill(&output, id: id)
        return output
    }

    /// Fills `buffer` with the first `buffer.count` bytes of the body for `id`.
    static func fill(_ buffer: inout [UInt8], id: String) {
        var hash = StableHash(seed: 0x50a4)
        hash.combine(id)
        var state = hash.finalize()
        buffer.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                state &+= 0x9e37_79b9_7f4a_7c15
                var word = StableHash.mix(state).littleEndian
                let length = min(8, raw.count - offset)
                withUnsafeBytes(of: &word) { wordBytes in
                    for i in 0..<length { raw[offset + i] = wordBytes[i] }
                }
                offset += length
            }
        }
    }

    /// The lowercase hex SHA-256 of `bytes`, as the server writes it in ``digestHeader``.
    /// - Parameter bytes: The bytes.
    /// - Returns: 64 hex digits.
    public static func digest(of bytes: some Sequence<UInt8>) -> String {
        BodyDigest.hexDigest(of: bytes)
    }
}
