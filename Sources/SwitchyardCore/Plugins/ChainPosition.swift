/// Where in the chain an interceptor runs.
///
/// ```
/// Client ─▶ call interceptors ─▶ redirects ─▶ retry ─▶ attempt interceptors ─▶ transport
/// ```
public enum ChainPosition: String, Sendable, Hashable, CaseIterable {
    /// Once per call, outside every link that sends the request again: department fields, the
    /// call's events, checks of the final response.
    case call
    /// Once per attempt (every retry and every redirect hop), seeing the request exactly as it goes
    /// on the wire: signing, per-attempt timing, logging.
    case attempt
}
