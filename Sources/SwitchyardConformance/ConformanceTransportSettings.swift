/// Settings a check needs its transport made with, for behaviour that shows only under them: a
/// queue behind a single connection, an idle timeout short enough to wait for.
///
/// A subject made with ``ConformanceSubject/init(name:limitations:crashingLimitations:makeTransportWith:shutdown:)``
/// turns them into its transport's own configuration. A check that needs settings is not run on a
/// subject made with a plain factory, and is reported as such.
public struct ConformanceTransportSettings: Sendable, Hashable, CustomStringConvertible {
    /// At most this many connections to one host; `nil` keeps the transport's default.
    public var maxConnectionsPerHost: Int?
    /// How long an exchange may see no bytes before it fails with `timeout`; `nil` keeps the
    /// transport's default.
    public var idleTimeout: Duration?

    /// Settings; each `nil` keeps the transport's default.
    /// - Parameters:
    ///   - maxConnectionsPerHost: At most this many connections to one host.
    ///   - idleTimeout: The idle timeout.
    public init(maxConnectionsPerHost: Int? = nil, idleTimeout: Duration? = nil) {
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.idleTimeout = idleTimeout
    }

    /// The transport's defaults.
    public static let defaults = ConformanceTransportSettings()

    /// E.g. `maxConnectionsPerHost=1`.
    public var description: String {
        var parts: [String] = []
        if let maxConnectionsPerHost { parts.append("maxConnectionsPerHost=\(maxConnectionsPerHost)") }
        if let idleTimeout { parts.append("idleTimeout=\(idleTimeout)") }
        return parts.isEmpty ? "defaults" : parts.joined(separator: " ")
    }
}
