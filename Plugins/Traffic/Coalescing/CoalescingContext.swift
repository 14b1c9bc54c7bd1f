public import SwitchyardCore

extension ExchangeContext {
    /// For a caller that shared another caller's exchange (see ``CoalescingPolicy``): that
    /// exchange's `id` (the leader's). `nil` for a caller whose exchange was its own, the
    /// leader's included. Its transport `timings` and `provenance` are copies of the leader's.
    public var coalescedWith: UInt64? { self[SharedExchangeKey.self] }
}

extension ExchangeEvent {
    /// For an event of a call that shared another call's exchange: that exchange's id (the
    /// leader's, ``ExchangeContext/coalescedWith``); `nil` otherwise.
    public var coalescedWith: UInt64? { context?.coalescedWith }
}
