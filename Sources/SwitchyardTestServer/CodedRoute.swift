import NIOCore

/// The `/coded/{coding}/{variant}` routes: bodies in `Content-Encoding: br` or `zstd`, compressed at
/// run time with the system libraries (`BrotliZstd`), for the decoding tests of `SwitchyardCompression`.
enum CodedRoute {
    /// The decoded body of `/coded/{coding}/text`: `hello, {coding}\n` repeated 1,000 times.
    static func text(_ coding: String) -> [UInt8] { Array(String(repeating: "hello, \(coding)\n", count: 1000).utf8) }

    /// The action for `/coded/{coding}/{variant}`; `nil` when the path is not one of these routes.
    static func action(coding: Substring, variant: Substring, target: RequestTarget) -> RouteAction? {
        #if canImport(CBrotli) && canImport(CZstd)
        let coding = String(coding)
        guard coding == "br" || coding == "zstd" else {
            return coding == "unknown" ? encoded("x-unknown", ByteBuffer(string: "plain bytes\n")) : nil
        }
        switch variant {
        case "text":
            guard let layers = Router.optionalInteger(target, "layers", default: 1, limit: 8), layers > 0 else { return Router.badRequest }
            var bytes = text(coding)
            for _ in 0..<layers { bytes = BrotliZstd.compress(bytes, coding: coding) }
            let field = Array(repeating: coding, count: layers).joined(separator: ", ")
            return encoded(field, ByteBuffer(bytes: bytes), contentType: "text/plain")
        case "binary":
            guard let count = Router.optionalInteger(target, "bytes", default: 1 << 20, limit: 64 << 20) else { return Router.badRequest }
            return encoded(coding, ByteBuffer(bytes: BrotliZstd.compress(pattern(count), coding: coding)))
        case "frames" where coding == "zstd":
            guard let count = Router.optionalInteger(target, "bytes", default: 300_000, limit: 64 << 20),
                let frames = Router.optionalInteger(target, "count", default: 3, limit: 100), frames > 0
            else { return Router.badRequest }
            let whole = pattern(count)
            let size = (count + frames - 1) / frames
            var buffer = ByteBuffer()
            for start in stride(from: 0, to: max(count, 1), by: max(size, 1)) {
                buffer.writeBytes(BrotliZstd.compress(Array(whole[start..<min(count, start + size)]), coding: "zstd"))
            }
            return encoded(coding, buffer)
        case "bomb":
            guard let count = Router.optionalInteger(target, "bytes", default: 10 << 20, limit: 4 << 30) else { return Router.badRequest }
            return encoded(coding, BrotliZstd.zeros(count: count, coding: coding))
        case "broken":
            return encoded(coding, ByteBuffer(bytes: broken(coding)), contentType: "text/plain")
        case "truncated":
            let whole = BrotliZstd.compress(text(coding), coding: coding)
            return encoded(coding, ByteBuffer(bytes: whole.prefix(whole.count * 6 / 10)), contentType: "text/plain")
        case "trailing":
            let bytes = BrotliZstd.compress(text(coding), coding: coding) + Array("trailing garbage".utf8)
            return encoded(coding, ByteBuffer(bytes: bytes), contentType: "text/plain")
        default:
            return nil
        }
        #else
        return .text(501, "br and zstd need libbrotli and libzstd (Linux)\n")
        #endif
    }

    /// `count` bytes of the body pattern (byte `i` is `i % 251`).
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }

    private static func encoded(_ coding: String, _ body: ByteBuffer, contentType: String = "application/octet-stream")
        -> RouteAction
    {
        .bytes(200, body, contentType: contentType, headers: [("Content-Encoding", coding)])
    }

    #if canImport(CBrotli) && canImport(CZstd)
    /// The text compressed, then damaged: three bytes inverted at the first place from the middle
    /// on where the library itself then refuses the stream (brotli has no checksum, so not every
    /// change is detectable; zstd's frame checksum catches any).
    static func broken(_ coding: String) -> [UInt8] {
        let whole = BrotliZstd.compress(text(coding), coding: coding)
        for middle in (whole.count / 2)..<(whole.count - 2) {
            var bytes = whole
            for i in (middle - 1)...(middle + 1) { bytes[i] ^= 0xFF }
            if BrotliZstd.decompress(bytes, coding: coding) == nil { return bytes }
        }
        return Array("not \(coding) at all".utf8)
    }
    #endif
}
