/// Where in the chain an interceptor runs.
///
/// ```
/// Client ─▶ call links ─▶ links that send the request again ─▶ attempt links ─▶ transport
/// ```
public enum ChainPosition: String, Sendable, Hashable, CaseIterable {
    /// Once per call, outside every link that sends the request again: department fields, the
    /// call's events, checks of the final response.
    case call
    /// Once per attempt (each time the request is sent again, to the same or another location),
    /// seeing the request exactly as it goes on the wire: signing, per-attempt timing, log lines.
    case attempt
}
