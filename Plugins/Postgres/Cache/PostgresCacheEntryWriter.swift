import SwitchyardCache
import SwitchyardCore

/// Streams one response body into body rows of ``PostgresCacheStore/chunkBytes`` as the caller reads
/// it, and points the entry at it on commit. Aborted (or dropped before committing), it deletes its
/// rows; a process that dies leaves them to the store's eviction.
final class PostgresCacheEntryWriter: CacheEntryWriter {
    private struct State {
        var pending: [UInt8] = []
        var size: Int64 = 0
        var chunks: Int32 = 0
        var isClosed = false
    }

    private let store: PostgresCacheStore
    private let key: CacheKey
    private let head: CachedResponse
    private let bodyID: Int64
    private let state = Lock(State())

    init(store: PostgresCacheStore, key: CacheKey, head: CachedResponse, bodyID: Int64) {
        self.store = store
        self.key = key
        self.head = head
        self.bodyID = bodyID
    }

    deinit {
        if !state.withLock({ $0.isClosed }) { discard() }
    }

    func write(_ chunk: ArraySlice<UInt8>) async throws {
        let full: (bytes: [UInt8], seq: Int32)? = try state.withLock { state in
            guard !state.isClosed else { throw SwitchyardError(.invalidRequest, "The cache entry was already closed.") }
            if state.pending.capacity == 0 { state.pending.reserveCapacity(store.chunkBytes + (64 << 10)) }
            state.pending.append(contentsOf: chunk)
            state.size += Int64(chunk.count)
            guard state.pending.count >= store.chunkBytes else { return nil }
            // One buffer for the writer's life: a row's bytes are copied out, the capacity kept.
            defer {
                state.pending.removeAll(keepingCapacity: true)
                state.chunks += 1
            }
            return (Array(state.pending), state.chunks)
        }
        guard let full else { return }
        do {
            try await PostgresCacheBody.append(full.bytes[...], to: bodyID, seq: full.seq, shared: store.shared)
        } catch {
            abort()
            throw error
        }
    }

    func commit() async throws {
        let (last, size, chunks) = try state.withLock { state in
            guard !state.isClosed else { throw SwitchyardError(.invalidRequest, "The cache entry was already closed.") }
            state.isClosed = true
            let last = state.pending.isEmpty ? nil : (state.pending, state.chunks)
            return (last, state.size, state.chunks + (state.pending.isEmpty ? 0 : 1))
        }
        do {
            if let last { try await PostgresCacheBody.append(last.0[...], to: bodyID, seq: last.1, shared: store.shared) }
            try await store.commit(key, head: .response(head), body: (bodyID, size, chunks))
        } catch {
            discard()
            throw error
        }
    }

    func abort() {
        guard
            state.withLock({ state in
                defer { state.isClosed = true }
                return !state.isClosed
            })
        else { return }
        discard()
    }

    private func discard() {
        let (bodyID, shared) = (bodyID, store.shared)
        Task.detached { try? await PostgresCacheBody.discard(bodyID, shared: shared) }
    }
}
