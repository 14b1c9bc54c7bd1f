import HTTPTypes
public import SwitchyardCore
public import SwitchyardTransportKit

/// Compresses large request bodies on their way out (gzip by default, or any `ContentCodec` that
/// encodes, e.g. ``ZstdCodec``), streamed chunk by chunk in constant memory.
///
/// A request is compressed when it has a body, carries no `Content-Encoding` yet, and its body is
/// either of unknown length or at least ``minimumBytes`` long; smaller bodies go as they are. A
/// compressed request gets `Content-Encoding: <coding>` (e.g. `gzip`) and loses any `Content-Length` (the compressed
/// size is only known once it has been sent; transports then send it chunked). The sizes before and
/// after are recorded as a ``RequestCompressionReport`` in the exchange's context.
///
/// Only use it for servers known to accept compressed request bodies (there is no negotiation in
/// HTTP for requests): register it for their scope with ``Plugin/requestCompression(scope:minimumBytes:level:name:)``.
///
/// It belongs at the call position: retries and redirects replay the compressed body (which stays
/// replayable when the original is), and attempt links such as signing see the bytes as sent.
///
/// ### Cost
///
/// Nothing for requests it leaves alone but a look at the head and the body's length; a compressed
/// body costs zlib's state (about 256 KiB) while it is sent, and zlib's CPU time.
public struct RequestCompressionInterceptor: Interceptor {
    /// Bodies shorter than this (1 KiB) are not worth compressing by default.
    public static let defaultMinimumBytes: Int64 = 1024
    /// zlib's default level (6): a good ratio at a fraction of level 9's time.
    public static let defaultLevel = 6

    /// Bodies of known length shorter than this go uncompressed.
    public let minimumBytes: Int64
    /// The gzip level, 1 (fastest) … 9 (smallest); for another ``coding``, the level it is given
    /// (clamped by the codec).
    public let level: Int
    /// The content coding applied (default `GzipCodec`).
    public let coding: any ContentCodec

    /// Creates a gzip-compressing interceptor.
    /// - Parameters:
    ///   - minimumBytes: The smallest known-length body that is compressed.
    ///   - level: zlib's compression level, clamped to 1 … 9.
    public init(minimumBytes: Int64 = defaultMinimumBytes, level: Int = defaultLevel) {
        self.minimumBytes = minimumBytes
        self.level = min(9, max(1, level))
        self.coding = GzipCodec()
    }

    /// Creates an interceptor compressing with `coding`.
    /// - Parameters:
    ///   - coding: A codec that encodes (its `ContentCodec.makeEncoder(level:)`).
    ///   - minimumBytes: The smallest known-length body that is compressed.
    ///   - level: The codec's level (clamped to its range).
    public init(coding: any ContentCodec, minimumBytes: Int64 = defaultMinimumBytes, level: Int) {
        self.minimumBytes = minimumBytes
        self.level = level
        self.coding = coding
    }

    /// Replaces a large body with its compressed stream and adjusts the headers; forwards other requests unchanged.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        guard let body = request.body, shouldCompress(request, body) else { return try await next(request) }
        var request = request
        let name = coding.name
        request.body = body.encoded(with: coding, level: level) { plain, compressed in
            let report = RequestCompressionReport(coding: name, originalBytes: plain, compressedBytes: compressed)
            context[RequestCompressionReport.Key.self] = report
        }
        request.head.headerFields[.contentEncoding] = name
        request.head.headerFields[.contentLength] = nil
        return try await next(request)
    }

    private func shouldCompress(_ request: Request, _ body: HTTPBody) -> Bool {
        guard request.head.headerFields[.contentEncoding] == nil else { return false }
        switch body.length {
        case .known(let count): return count >= minimumBytes
        case .unknown: return true
        }
    }
}

extension Plugin {
    /// A plugin that gzip-compresses the request bodies in `scope` (see ``RequestCompressionInterceptor``).
    ///
    /// ```swift
    /// let uploads = Plugin.requestCompression(scope: RequestScope(hosts: ["upload.example.com"]))
    /// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [uploads]))
    /// ```
    /// - Parameters:
    ///   - scope: The requests whose servers accept `Content-Encoding: gzip` bodies.
    ///   - minimumBytes: The smallest known-length body that is compressed.
    ///   - level: zlib's compression level, 1 … 9.
    ///   - name: The plugin's name (default `requestCompression`).
    /// - Returns: A plugin at the call position.
    public static func requestCompression(
        scope: RequestScope, minimumBytes: Int64 = RequestCompressionInterceptor.defaultMinimumBytes,
        level: Int = RequestCompressionInterceptor.defaultLevel, name: String = "requestCompression"
    ) -> Plugin {
        Plugin(
            name: name, scope: scope, position: .call,
            interceptors: [RequestCompressionInterceptor(minimumBytes: minimumBytes, level: level)])
    }

    /// A plugin that compresses the request bodies in `scope` with `coding` (see
    /// ``RequestCompressionInterceptor``), e.g. `SwitchyardCompression`'s zstd.
    /// - Parameters:
    ///   - scope: The requests whose servers accept `Content-Encoding: <coding>` bodies.
    ///   - coding: A codec that encodes.
    ///   - minimumBytes: The smallest known-length body that is compressed.
    ///   - level: The codec's compression level (clamped to its range).
    ///   - name: The plugin's name (default `requestCompression`).
    /// - Returns: A plugin at the call position.
    public static func requestCompression(
        scope: RequestScope, coding: any ContentCodec,
        minimumBytes: Int64 = RequestCompressionInterceptor.defaultMinimumBytes,
        level: Int, name: String = "requestCompression"
    ) -> Plugin {
        Plugin(
            name: name, scope: scope, position: .call,
            interceptors: [RequestCompressionInterceptor(coding: coding, minimumBytes: minimumBytes, level: level)])
    }
}
