import SwitchyardCore

/// A cache store in memory, bounded in bytes, that evicts the least recently used records first.
///
/// ```swift
/// let cache = HTTPCache(store: MemoryCacheStore(maxBytes: 10 << 20))
/// ```
///
/// A hit costs one lock, one dictionary lookup and no copy of the body (the body array is shared);
/// eviction scans the records (it runs only when a write goes over the bound).
public final class MemoryCacheStore: CacheStore {
    /// The default bound: 10 MiB.
    public static let defaultMaxBytes = 10 << 20

    private struct Slot {
        var record: CacheRecord
        var bytes: Int
        var lastUse: UInt64
    }

    private struct State {
        var slots: [CacheKey: Slot] = [:]
        var totalBytes = 0
        var clock: UInt64 = 0
    }

    /// The most bytes the store keeps (bodies plus an estimate of headers).
    public let maxBytes: Int
    private let state = Lock(State())

    /// Creates an empty store.
    /// - Parameter maxBytes: The bound in bytes (default ``defaultMaxBytes``).
    public init(maxBytes: Int = MemoryCacheStore.defaultMaxBytes) {
        self.maxBytes = maxBytes
    }

    /// The bytes held now.
    public var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// The number of records held now.
    public var count: Int { state.withLock { $0.slots.count } }

    /// The record under `key`, marked as used now.
    /// - Parameter key: The key.
    /// - Returns: The record, if any.
    public func record(for key: CacheKey) -> CacheRecord? {
        state.withLock { state in
            state.clock &+= 1
            let now = state.clock
            return state.slots[key].map { slot in
                state.slots[key]?.lastUse = now
                return slot.record
            }
        }
    }

    /// Stores `record` under `key`, evicting the least recently used records beyond ``maxBytes``.
    /// - Parameters:
    ///   - record: The record.
    ///   - key: The key.
    public func store(_ record: CacheRecord, for key: CacheKey) {
        // A body another store streams is not held here.
        if case .response(let response) = record, response.streamedBody != nil { return removeRecord(for: key) }
        let bytes = record.byteCount
        guard bytes <= maxBytes else { return removeRecord(for: key) }
        state.withLock { state in
            state.clock &+= 1
            let slot = Slot(record: record, bytes: bytes, lastUse: state.clock)
            if let old = state.slots.updateValue(slot, forKey: key) {
                state.totalBytes -= old.bytes
            }
            state.totalBytes += bytes
            while state.totalBytes > maxBytes,
                let victim = state.slots.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.totalBytes -= victim.value.bytes
                state.slots[victim.key] = nil
            }
        }
    }

    /// A writer that collects the body and stores the response on commit.
    /// - Parameters:
    ///   - response: The response, with an empty body.
    ///   - key: The key.
    /// - Returns: The writer.
    public func makeWriter(for response: CachedResponse, key: CacheKey) -> (any CacheEntryWriter)? {
        MemoryEntryWriter(store: self, key: key, response: response)
    }

    /// Removes the record under `key`.
    /// - Parameter key: The key.
    public func removeRecord(for key: CacheKey) {
        state.withLock { state in
            if let old = state.slots.removeValue(forKey: key) { state.totalBytes -= old.bytes }
        }
    }

    /// Removes every record of `partition`.
    /// - Parameter partition: The partition.
    public func removeAll(partition: String) {
        state.withLock { state in
            for (key, slot) in state.slots where key.partition == partition {
                state.slots[key] = nil
                state.totalBytes -= slot.bytes
            }
        }
    }

    /// Removes every record.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}

/// Collects a body for a ``MemoryCacheStore``; the store sees the entry only on commit.
private final class MemoryEntryWriter: CacheEntryWriter {
    private let store: MemoryCacheStore
    private let key: CacheKey
    private let response: Lock<CachedResponse?>

    init(store: MemoryCacheStore, key: CacheKey, response: CachedResponse) {
        self.store = store
        self.key = key
        self.response = Lock(response)
    }

    func write(_ chunk: ArraySlice<UInt8>) throws {
        let limit = store.maxBytes
        response.withLock { response in
            response?.body.append(contentsOf: chunk)
            if let body = response?.body, body.count > limit { response = nil }
        }
    }

    func commit() throws {
        guard let response = response.withLock({ $0.take() }) else { return }
        store.store(.response(response), for: key)
    }

    func abort() {
        response.withLock { $0 = nil }
    }
}
