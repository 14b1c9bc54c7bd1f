public import HTTPTypes

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
            response.body.count
                + response.headerFields.reduce(64) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        case .variants(let names, let generation): names.reduce(64 + generation.utf8.count) { $0 + $1.utf8.count }
        }
    }
}
