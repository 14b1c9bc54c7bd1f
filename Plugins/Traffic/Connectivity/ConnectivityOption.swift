public import SwitchyardCore

/// The per-request option to wait for the network (``SwitchyardCore/RequestOptions/waitsForConnectivity``).
public enum WaitsForConnectivityKey: RequestOptionKey {
    /// `false`: sent at once, even while the source reports offline (it can be wrong).
    public static let defaultValue = false
}

extension RequestOptions {
    /// Whether the request waits, while the client's connectivity source
    /// (``SwitchyardCore/Plugin/connectivity(_:)``) reports offline, for the network to come back
    /// (up to its deadline, cancellable) instead of being sent at once. Default `false`: sent anyway
    /// (the source can be wrong). Has no effect on a client without a connectivity source. See
    /// ``ConnectivityInterceptor``.
    public var waitsForConnectivity: Bool {
        get { self[WaitsForConnectivityKey.self] }
        set { self[WaitsForConnectivityKey.self] = newValue }
    }
}
