public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) when an exchange waits for the connectivity source
/// to report the network back (``SwitchyardCore/RequestOptions/waitsForConnectivity``, or a retry while offline).
public struct WaitingForConnectivity: PluginEvent, Hashable {
    /// `waitingForConnectivity`.
    public var name: String { "waitingForConnectivity" }

    /// Creates the event.
    public init() {}
}
