public import SwitchyardCore

/// Where a caller that shares another caller's exchange keeps that exchange's id.
enum CoalescedWithKey: ExchangeContextKey {
    typealias Value = UInt64
}

extension PipelineTimings {
    /// The stage a caller that shares another caller's exchange records: how long it waited for
    /// the shared response's head. Timing statistics count calls with it as coalesced.
    public static let coalescedStage = "coalesced"
}

extension ExchangeContext {
    /// For a caller that shared another caller's exchange (see ``CoalescingPolicy``): that
    /// exchange's `id` (the leader's). `nil` for a caller whose exchange was its own, the
    /// leader's included. Its transport `timings` and the plugins' values about the response (such
    /// as the cache's `provenance`) are copies of the leader's.
    public var coalescedWith: UInt64? { self[CoalescedWithKey.self] }
}

extension ExchangeEvent {
    /// For an event of a call that shared another call's exchange: that exchange's id (the
    /// leader's, ``ExchangeContext/coalescedWith``); `nil` otherwise.
    public var coalescedWith: UInt64? { context?.coalescedWith }
}
