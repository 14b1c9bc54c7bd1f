public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) when a call joins exchange ``leader``, already in
/// flight for an identical request: its response comes from that exchange (see ``CoalescingPolicy``).
public struct Coalesced: PluginEvent, Hashable {
    /// `coalesced`.
    public var name: String { "coalesced" }
    /// The id of the exchange the call joined (the leader's).
    public let leader: UInt64
    /// `shares exchange #N`.
    public var detail: String { "shares exchange #\(leader)" }

    /// Creates the event.
    /// - Parameter leader: The leader's exchange id.
    public init(leader: UInt64) {
        self.leader = leader
    }
}
