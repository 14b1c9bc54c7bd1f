public import HTTPTypes
public import SwitchyardCore

/// The content codings a request's response may be decoded from: gzip and deflate always, plus the
/// codecs plugins add (``RequestOptions/contentDecoders``).
///
/// Every transport that hands Switchyard the encoded bytes advertises ``acceptEncoding`` when the
/// request sets no `Accept-Encoding`, and decodes exactly these codings, the same way. A coding
/// not in the set arrives as sent, its `Content-Encoding` intact.
///
/// ```swift
/// var request = try Request(url: "https://example.com/feed")
/// request.options.contentDecoders = ContentDecoders([MyCodec()])
/// ```
public struct ContentDecoders: Sendable, Hashable, CustomStringConvertible {
    /// gzip (and `x-gzip`) and deflate only: the default.
    public static let builtIn = ContentDecoders([])

    /// More codings than this on one response are refused: no server needs them, and each layer
    /// multiplies the work a small hostile body can cause.
    public static let maxLayers = 3

    /// The codecs beyond gzip and deflate, in the order they were added.
    public let added: [any ContentCodec]
    /// The `Accept-Encoding` value that lists every coding of the set, e.g. `gzip, deflate, br, zstd`.
    public let acceptEncoding: String

    /// gzip and deflate plus `codecs`; a codec whose name is already present is left out.
    /// - Parameter codecs: The codecs to add.
    public init(_ codecs: [any ContentCodec]) {
        var names: [String] = [GzipCodec().name, DeflateCodec().name]
        var added: [any ContentCodec] = []
        for codec in codecs where !names.contains(codec.name) && !codec.aliases.contains(where: names.contains) {
            names.append(codec.name)
            added.append(codec)
        }
        self.added = added
        self.acceptEncoding = names.joined(separator: ", ")
    }

    /// This set with `codecs` added (itself when they are all present already).
    /// - Parameter codecs: The codecs to add.
    /// - Returns: The larger set.
    public func adding(_ codecs: [any ContentCodec]) -> ContentDecoders {
        let missing = codecs.filter { codec in !added.contains { $0.name == codec.name } }
        return missing.isEmpty ? self : ContentDecoders(added + missing)
    }

    /// The codec for a `Content-Encoding` token (lower-case), or `nil` when the set has none.
    /// - Parameter token: The coding, e.g. `br`.
    /// - Returns: The codec.
    public func codec(named token: some StringProtocol) -> (any ContentCodec)? {
        switch token {
        case "gzip", "x-gzip": return GzipCodec()
        case "deflate": return DeflateCodec()
        default: return added.first { $0.name == token || $0.aliases.contains(String(token)) }
        }
    }

    /// The codecs of `fields`' `Content-Encoding`, in the order they were applied.
    ///
    /// - Parameter fields: A response's header fields.
    /// - Returns: `[]` when the body is not encoded (no field, or only `identity`); `nil` when a
    ///   coding is not in the set: the body is then delivered as sent, with its `Content-Encoding`
    ///   intact, so nothing is silently altered.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for more than ``maxLayers`` codings.
    public func codecs(of fields: HTTPFields) throws(SwitchyardError) -> [any ContentCodec]? {
        guard fields.containsField(named: .contentEncoding) else { return [] }  // the common case, no allocation
        var codecs: [any ContentCodec] = []
        for field in fields where field.name.matches(.contentEncoding) {
            for item in field.value.split(separator: ",") {
                let token = item.trimmingSpaces().lowercased()
                if token.isEmpty || token == "identity" { continue }
                guard let codec = codec(named: token) else { return nil }
                codecs.append(codec)
            }
        }
        try Self.checkLayers(codecs.count)
        return codecs
    }

    /// Refuses more than ``maxLayers`` codings; for transports whose platform decodes by itself.
    /// - Parameter fields: A response's header fields.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for more than ``maxLayers`` codings.
    public static func checkLayers(of fields: HTTPFields) throws(SwitchyardError) {
        guard fields.containsField(named: .contentEncoding) else { return }
        let count = fields[values: .contentEncoding].reduce(0) { count, value in
            count
                + value.split(separator: ",").count { item in
                    let token = item.trimmingSpaces()
                    return !token.isEmpty && token.lowercased() != "identity"
                }
        }
        try checkLayers(count)
    }

    private static func checkLayers(_ count: Int) throws(SwitchyardError) {
        guard count <= maxLayers else {
            throw .protocolViolation(
                "The response lists \(count) content codings; at most \(maxLayers) are decoded,"
                    + " so the body was refused rather than delivered still encoded.")
        }
    }

    /// Sets are equal when they hold the same codings.
    public static func == (lhs: ContentDecoders, rhs: ContentDecoders) -> Bool { lhs.acceptEncoding == rhs.acceptEncoding }

    /// Hashes the codings' names.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(acceptEncoding) }

    /// The codings, as in ``acceptEncoding``.
    public var description: String { acceptEncoding }
}

/// The per-request option that holds the codings a response may be decoded from
/// (``RequestOptions/contentDecoders``).
public enum ContentDecodersKey: RequestOptionKey {
    /// gzip and deflate.
    public static let defaultValue = ContentDecoders.builtIn
}

extension RequestOptions {
    /// The content codings this request's response is decoded from, and that transports advertise
    /// in `Accept-Encoding` when the request sets none (default: gzip and deflate). A plugin such as
    /// `SwitchyardCompression`'s adds `br` and `zstd` for the requests in its scope.
    public var contentDecoders: ContentDecoders {
        get { self[ContentDecodersKey.self] }
        set { self[ContentDecodersKey.self] = newValue }
    }
}
