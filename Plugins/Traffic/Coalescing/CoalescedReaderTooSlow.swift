public import SwitchyardCore

extension SwitchyardError.Kind {
    /// This caller shared a coalesced exchange and fell more unread bytes behind the fastest
    /// reader than ``CoalescingPolicy/maxBufferedBytesPerCaller``: its body was abandoned (the
    /// other callers go on). Never a truncated body: the read that would continue it throws.
    public static let coalescedReaderTooSlow = Self(rawValue: "coalescedReaderTooSlow")
}

extension SwitchyardError {
    /// A caller of a coalesced exchange fell more than `limit` unread bytes behind.
    /// - Parameter limit: The per-caller buffer, in bytes.
    /// - Returns: A ``SwitchyardError/Kind/coalescedReaderTooSlow`` error.
    public static func coalescedReaderTooSlow(limit: Int) -> Self {
        Self(
            .coalescedReaderTooSlow,
            "This response was shared with identical requests in flight, and this reader"
                + " fell more than \(limit) unread bytes behind the fastest one, so its copy of the body was abandoned"
                + " (the others continue). Read the body as it arrives, raise CoalescingPolicy.maxBufferedBytesPerCaller,"
                + " or send this request with options.coalescing = .never.")
    }
}
