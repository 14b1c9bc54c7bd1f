import NIOCore

/// Pre-compressed bodies for `/gzip`, `/deflate` and `/gzip/broken`.
///
/// Both decode to `"hello, gzip\n"` repeated 100 times (1200 bytes). Generated once with:
///
///     python3 -c 'import gzip, zlib; d = b"hello, gzip\n" * 100; \
///                 print(gzip.compress(d, mtime=0).hex()); print(zlib.compress(d).hex())'
///
/// (`mtime=0` keeps the gzip header deterministic; `zlib.compress` uses the default level 6.)
enum GzipFixtures {
    /// The decoded body both fixtures expand to.
    static let decoded = String(repeating: "hello, gzip\n", count: 100)

    /// gzip member (RFC 1952) of ``decoded``.
    static let gzip: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48,
        0xcd, 0xc9, 0xc9, 0xd7, 0x51, 0x48, 0xaf, 0xca, 0x2c, 0xe0, 0xca, 0x18,
        0x65, 0x8f, 0xb2, 0x47, 0xd9, 0xa3, 0xec, 0x41, 0xcc, 0x06, 0x00, 0x8a,
        0x14, 0x0d, 0x40, 0xb0, 0x04, 0x00, 0x00
    ]

    /// zlib-wrapped deflate stream (RFC 1950) of ``decoded`` — what `Content-Encoding: deflate` means.
    static let deflate: [UInt8] = [
        0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xd7, 0x51, 0x48, 0xaf, 0xca,
        0x2c, 0xe0, 0xca, 0x18, 0x65, 0x8f, 0xb2, 0x47, 0xd9, 0xa3, 0xec, 0x41,
        0xcc, 0x06, 0x00, 0x36, 0x40, 0x9e, 0x20
    ]

    /// ``gzip`` with three bytes in the middle of the deflate data inverted; same length.
    /// (Python's `gzip.decompress` fails on it with "invalid distance too far back".)
    static let brokenGzip: [UInt8] = {
        var bytes = gzip
        let middle = bytes.count / 2
        for i in (middle - 1)...(middle + 1) { bytes[i] ^= 0xFF }
        return bytes
    }()

    /// The first 60 % of ``gzip``: a stream that stops before its end.
    static let truncatedGzipBuffer = ByteBuffer(bytes: gzip.prefix(gzip.count * 6 / 10))
    /// ``gzip`` compressed again (`Content-Encoding: gzip, gzip`).
    static let doubleGzipBuffer = ByteBuffer(bytes: Deflate.gzip(gzip))

    /// ``gzip`` as a ready-to-send buffer.
    static let gzipBuffer = ByteBuffer(bytes: gzip)
    /// ``deflate`` as a ready-to-send buffer.
    static let deflateBuffer = ByteBuffer(bytes: deflate)
    /// ``brokenGzip`` as a ready-to-send buffer.
    static let brokenGzipBuffer = ByteBuffer(bytes: brokenGzip)
}
