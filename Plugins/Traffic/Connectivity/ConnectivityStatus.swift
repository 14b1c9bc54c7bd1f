import SwitchyardCore

/// Whether the device can reach the network, as a ``ConnectivitySource`` sees it.
public enum ConnectivityStatus: String, Sendable, Hashable, CustomStringConvertible {
    /// A usable network path (an interface that is up, a default route).
    case online
    /// No usable network path: requests would fail with `SwitchyardError.Kind.connectionFailed`.
    case offline
    /// The source does not know yet (e.g. before its first check); treated like `online`.
    case unknown

    /// `online`, `offline` or `unknown`.
    public var description: String { rawValue }
}
