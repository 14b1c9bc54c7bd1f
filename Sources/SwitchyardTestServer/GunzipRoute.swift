import CZlib
import NIOCore
import NIOHTTP1

/// The `/gunzip` route: decodes a request body sent with `Content-Encoding: gzip` (or `zstd`, `br`)
/// and reports what it decoded to, so tests can check a compressed upload byte for byte.
enum GunzipRoute {
    /// 200 `application/json`
    /// `{"content_encoding":"gzip","received_length":N,"length":M,"sha256":"…"}` — `received_length`
    /// is the body as received, `length` and `sha256` describe it after decoding (as received when it
    /// has no `Content-Encoding`); 400 `not gzip\n` (`not zstd\n`, `not br\n`) when the body does not decode.
    static func action(_ request: IncomingRequest) -> RouteAction {
        if request.isTooLarge { return .text(413, "body too large\n") }
        let received = request.body.map { Array($0.readableBytesView) } ?? []
        let encoding = request.head.headers["Content-Encoding"].joined(separator: ",")
        let decoded: [UInt8]
        switch encoding.lowercased() {
        case "": decoded = received
        case "gzip":
            guard let inflated = gunzip(received) else { return .text(400, "not gzip\n") }
            decoded = inflated
        case "zstd", "br":
            #if canImport(CBrotli) && canImport(CZstd)
            guard let inflated = BrotliZstd.decompress(received, coding: encoding.lowercased()) else {
                return .text(400, "not \(encoding.lowercased())\n")
            }
            decoded = inflated
            #else
            return .text(400, "unsupported encoding\n")
            #endif
        default: return .text(400, "unsupported encoding\n")
        }
        let json =
            "{\"content_encoding\":\"\(encoding)\",\"received_length\":\(received.count),"
            + "\"length\":\(decoded.count),\"sha256\":\"\(BodyDigest.hexDigest(of: decoded))\"}"
        return .text(200, json, contentType: "application/json")
    }

    /// `bytes` decoded as one gzip member, or `nil` when they are not a complete, valid one.
    static func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        guard czlib_inflate_init(stream, 31) == Z_OK else { return nil }
        var input = bytes
        var output: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        var code = Z_OK
        input.withUnsafeMutableBufferPointer { inBuffer in
            stream.pointee.next_in = inBuffer.baseAddress
            stream.pointee.avail_in = UInt32(inBuffer.count)
            repeat {
                piece.withUnsafeMutableBufferPointer { outBuffer in
                    stream.pointee.next_out = outBuffer.baseAddress
                    stream.pointee.avail_out = UInt32(outBuffer.count)
                    code = inflate(stream, Z_NO_FLUSH)
                    output.append(contentsOf: outBuffer[0..<(outBuffer.count - Int(stream.pointee.avail_out))])
                }
            } while code == Z_OK
        }
        return code == Z_STREAM_END ? output : nil
    }
}
