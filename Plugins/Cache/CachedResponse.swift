public import HTTPTypes
public import SwitchyardCore

/// A response as a cache stores it: status, header fields, body, and when it was requested and
/// received (seconds since 1970, for the age calculation of RFC 9111 §4.2.3).
public struct CachedResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, as received or as last refreshed by a `304`.
    public var headerFields: HTTPFields
    /// The body.
    public var body: [UInt8]
    /// When the request that produced it was sent (seconds since 1970).
    public var requestTime: Double
    /// When its head was received (seconds since 1970).
    public var responseTime: Double
    /// The body as a store streams it, instead of ``body`` (which is then empty): a store of large
    /// bodies (`PostgresCacheStore`) sets it on the records it reads. Such a response answers no
    /// range request from the cache (the range goes to the network) and is not combined with parts.
    public var streamedBody: StreamedBody?

    /// Creates a stored response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headerFields: The header fields.
    ///   - body: The body.
    ///   - requestTime: When the request was sent.
    ///   - responseTime: When the response head arrived.
    public init(status: Int, headerFields: HTTPFields, body: [UInt8] = [], requestTime: Double, responseTime: Double) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
    }
}

/// A stored body read from its store as the caller reads it, in bounded memory.
public struct StreamedBody: Sendable {
    /// The body's length in bytes.
    public let count: Int
    /// The store's name for the body (e.g. its row id), so that the store can tell its own when a
    /// refreshed head is stored back (after a `304`) and keep the body as it is.
    public let identity: String
    /// Opens the body: each call reads it from the store again.
    public let open: @Sendable () -> HTTPBody

    /// Creates a streamed body.
    /// - Parameters:
    ///   - count: The length in bytes.
    ///   - identity: The store's name for the body.
    ///   - open: Opens the body; the body fails (never ends short) when the store cannot deliver
    ///     all `count` bytes.
    public init(count: Int, identity: String, open: @escaping @Sendable () -> HTTPBody) {
        self.count = count
        self.identity = identity
        self.open = open
    }
}

/// What a store keeps under one ``CacheKey``.
public enum CacheRecord: Sendable {
    /// A response.
    case response(CachedResponse)
    /// The resource's responses vary by these request header names (lower-cased, from `Vary`):
    /// each is stored under the key of its variant, which includes `generation`. A new index (after
    /// an invalidation) has a new generation, so the variants stored before it are never found again.
    case variants(names: [String], generation: String)

    /// The body's size plus an estimate of the rest: what byte bounds count.
    var byteCount: Int {
        switch self {
        case .response(let response):
            (response.streamedBody?.count ?? response.body.count)
                + response.headerFields.reduce(64) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        case .variants(let names, let generation): names.reduce(64 + generation.utf8.count) { $0 + $1.utf8.count }
        }
    }
}
