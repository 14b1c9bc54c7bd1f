public import SwitchyardCore

/// The idle timeout every shipped transport applies: an exchange in which the server sends no
/// byte for this long ends with ``SwitchyardError/Kind/timeout``, even when the request has no
/// deadline, so a server that accepts and never answers cannot hold a request forever.
///
/// It is separate from the whole-exchange deadline (``RequestOptions/timeout``): a 1 GiB download
/// may take an hour, but it may not stall. Each transport's configuration has an `idleTimeout`
/// (default ``default``); set it to `nil` to turn the check off — only explicitly.
public enum IdleTimeout {
    /// 60 seconds.
    public static let `default`: Duration = .seconds(60)

    /// The error for an exchange that went idle.
    /// - Parameters:
    ///   - host: The server.
    ///   - limit: The idle timeout that expired.
    public static func error(host: String, limit: Duration) -> SwitchyardError {
        SwitchyardError(
            .timeout,
            "\(host) sent nothing for \(limit) (the transport's idle timeout); the exchange was"
                + " abandoned. Raise idleTimeout if the server is known to think that long.")
    }

    /// Whole seconds, rounded up, at least 1 (for APIs that take seconds).
    package static func wholeSeconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(clamping: seconds) + (attoseconds > 0 ? 1 : 0))
    }
}
