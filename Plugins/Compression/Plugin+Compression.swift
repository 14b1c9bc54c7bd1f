#if canImport(CBrotli) && canImport(CZstd)
public import SwitchyardCore
import SwitchyardTransportKit

extension Plugin {
    /// A plugin that accepts and decodes `br` and `zstd` responses (besides gzip and deflate) for
    /// the requests in `scope`, identically on every transport.
    ///
    /// ```swift
    /// let client = try Client(
    ///     transport: CurlTransport(), configuration: ClientConfiguration(plugins: [.compressedResponses()]))
    /// ```
    /// - Parameters:
    ///   - scope: The requests it applies to (default: all).
    ///   - name: The plugin's name (default `compressedResponses`).
    /// - Returns: `Plugin.contentDecoding(_:scope:name:)` with ``BrotliCodec`` and ``ZstdCodec``.
    public static func compressedResponses(scope: RequestScope = .all, name: String = "compressedResponses") -> Plugin {
        .contentDecoding([.brotli, .zstd], scope: scope, name: name)
    }

    /// A plugin that zstd-compresses the request bodies in `scope`
    /// (`RequestCompressionInterceptor` with ``ZstdCodec``).
    ///
    /// Only for servers known to accept `Content-Encoding: zstd` request bodies.
    /// - Parameters:
    ///   - scope: The requests whose servers accept zstd bodies.
    ///   - minimumBytes: The smallest known-length body that is compressed.
    ///   - level: zstd's level, clamped to 1 … 19.
    ///   - name: The plugin's name (default `requestCompression`).
    /// - Returns: A plugin at the call position.
    public static func zstdRequestCompression(
        scope: RequestScope, minimumBytes: Int64 = RequestCompressionInterceptor.defaultMinimumBytes,
        level: Int = ZstdCodec.defaultLevel, name: String = "requestCompression"
    ) -> Plugin {
        .requestCompression(scope: scope, coding: ZstdCodec(), minimumBytes: minimumBytes, level: level, name: name)
    }
}
#endif
