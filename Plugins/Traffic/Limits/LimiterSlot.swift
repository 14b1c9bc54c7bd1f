import SwitchyardCore
import Synchronization

/// One exchange's slot in a ``ConcurrencyLimiter``, given back exactly once: when the response body
/// ends or fails, when it is dropped unread, or at once for a response without a streamed body.
final class LimiterSlot: BodyTap {
    private let limiter: ConcurrencyLimiter
    private let host: String
    private let released = Atomic<Bool>(false)

    init(limiter: ConcurrencyLimiter, host: String) {
        self.limiter = limiter
        self.host = host
    }

    deinit { release() }

    /// Gives the slot back; later calls do nothing.
    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        limiter.release(host: host)
    }

    func received(_ chunk: ArraySlice<UInt8>) throws {}
    func ended() throws { release() }
    func failed(_ error: SwitchyardError) { release() }
}
