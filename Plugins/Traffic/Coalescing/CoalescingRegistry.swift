import SwitchyardCore

/// The shared exchanges of one coalescing link that still accept callers, by key.
///
/// Lock order: the registry's lock may be held while taking an exchange's lock, never the reverse
/// (an exchange removes itself only after releasing its own lock).
final class CoalescingRegistry: Sendable {
    private let exchanges = Lock<[CoalescingKey: SharedExchange]>([:])
    private let maxBufferedBytesPerCaller: Int

    init(maxBufferedBytesPerCaller: Int) {
        self.maxBufferedBytesPerCaller = maxBufferedBytesPerCaller
    }

    /// A caller's place in a shared exchange.
    struct Membership {
        let exchange: SharedExchange
        let token: Int
        var isLeader: Bool { token == 0 }
    }

    /// Joins the exchange in flight for `key` if it still accepts callers, or registers a new one
    /// whose leader is `context`.
    func join(_ key: CoalescingKey, context: ExchangeContext) -> Membership {
        exchanges.withLock { exchanges in
            if let existing = exchanges[key], let token = existing.add(context) {
                return Membership(exchange: existing, token: token)
            }
            let exchange = SharedExchange(
                key: key, leader: context, registry: self,
                maxBufferedBytesPerCaller: maxBufferedBytesPerCaller)
            exchanges[key] = exchange
            return Membership(exchange: exchange, token: 0)
        }
    }

    /// Forgets `exchange` (it no longer accepts callers), unless another one has taken its key.
    func remove(_ exchange: SharedExchange) {
        exchanges.withLock { exchanges in
            if exchanges[exchange.key] === exchange { exchanges[exchange.key] = nil }
        }
    }
}
