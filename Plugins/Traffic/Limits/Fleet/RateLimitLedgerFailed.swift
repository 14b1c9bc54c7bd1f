public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) by a request that found the fleet's
/// ``RateLimitLedger`` unable to answer: it went by its process's own buckets
/// (``RateLimitSharing/Fallback/localBuckets``) or failed (``RateLimitSharing/Fallback/refuse``).
/// Requests in the following ``RateLimitSharing/retryInterval`` do the same without publishing it.
public struct RateLimitLedgerFailed: PluginEvent, Hashable {
    /// `rateLimitLedgerFailed`.
    public var name: String { "rateLimitLedgerFailed" }
    /// The bucket: the host, or empty for a shared bucket.
    public let bucket: String
    /// What the ledger's failure said (never a password).
    public let message: String
    /// Whether the request went by the local buckets (`true`) or failed (`false`).
    public let usedLocalBuckets: Bool
    /// `BUCKET: MESSAGE (local buckets | refused)`.
    public var detail: String { "\(bucket): \(message) (\(usedLocalBuckets ? "local buckets" : "refused"))" }

    /// Creates the event.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - message: What the ledger's failure said.
    ///   - usedLocalBuckets: Whether the request went by the local buckets.
    public init(bucket: String, message: String, usedLocalBuckets: Bool) {
        self.bucket = bucket
        self.message = message
        self.usedLocalBuckets = usedLocalBuckets
    }
}
