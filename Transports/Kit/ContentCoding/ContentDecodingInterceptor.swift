public import SwitchyardCore

/// Adds content codecs to the codings each request accepts (``RequestOptions/contentDecoders``):
/// every transport then advertises them in `Accept-Encoding` and decodes them as it decodes gzip.
///
/// Register it with ``Plugin/contentDecoding(_:scope:name:)``; the codecs come from plugin modules
/// (`SwitchyardCompression`: `br`, `zstd`) or from the app (``ContentCodec``). A request that
/// sets its own `Accept-Encoding` keeps it; what arrives in an accepted coding is decoded anyway.
///
/// ### Cost
///
/// Requests outside the plugin's scope: none. In scope: one comparison and an option write; the
/// decoding itself costs only bodies that arrive encoded.
public struct ContentDecodingInterceptor: Interceptor {
    /// The codings added to each request's set.
    public let decoders: ContentDecoders

    /// Creates the interceptor.
    /// - Parameter codecs: The codecs to add (gzip and deflate are always present).
    public init(_ codecs: [any ContentCodec]) {
        decoders = ContentDecoders(codecs)
    }

    /// Adds the codecs to the request's ``RequestOptions/contentDecoders`` and forwards it.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        var request = request
        let current = request.options.contentDecoders
        request.options.contentDecoders = current == .builtIn ? decoders : current.adding(decoders.added)
        return try await next(request)
    }
}

extension Plugin {
    /// A plugin that decodes responses in `codecs` for the requests in `scope`, on every transport
    /// (see ``ContentDecodingInterceptor``).
    ///
    /// ```swift
    /// let compression = Plugin.contentDecoding([.brotli, .zstd])   // codecs from SwitchyardCompression
    /// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [compression]))
    /// ```
    /// - Parameters:
    ///   - codecs: The codecs to accept and decode besides gzip and deflate.
    ///   - scope: The requests they apply to (default: all).
    ///   - name: The plugin's name (default `contentDecoding`).
    /// - Returns: A plugin at the call position, in the outer layer so every other link sees the
    ///   request as it will be sent.
    public static func contentDecoding(
        _ codecs: [any ContentCodec], scope: RequestScope = .all, name: String = "contentDecoding"
    ) -> Plugin {
        Plugin(
            name: name, scope: scope, position: .call, layer: .outer,
            interceptors: [ContentDecodingInterceptor(codecs)])
    }
}
