/// Where an ``HTTPCache`` keeps its records: in memory (``MemoryCacheStore``), on disk
/// (``DiskCacheStore``), or anywhere else.
///
/// ### Use an existing store
///
/// ```swift
/// let cache = HTTPCache(store: try DiskCacheStore(directory: cachesURL.appending(path: "http"), maxBytes: 50 << 20))
/// ```
///
/// ### Implement a custom store
///
/// A store maps ``CacheKey``s to ``CacheRecord``s, keeps partitions apart and bounds its size itself.
/// A response body reaches it through a ``CacheEntryWriter`` while it streams to the caller: the
/// record becomes visible only when the writer commits, and a writer that is aborted (or dropped)
/// leaves nothing behind. Every method may be called from any task at the same time. The methods
/// are `async` and may throw so that a store may be a server (`PostgresCacheStore`); the memory
/// and disk stores never suspend nor throw. A store that throws makes the cache go on without it
/// (a failed read is a miss, a failed write stores nothing) and publish ``CacheStoreFailed``. A store may hand a large body back as a ``StreamedBody`` instead of bytes.
public protocol CacheStore: Sendable {
    /// The record stored under `key`, or `nil` (a record found damaged is discarded and is `nil`).
    /// - Parameter key: The key.
    /// - Returns: The record, if any.
    /// - Throws: When the store cannot be read (the cache then treats it as a miss).
    func record(for key: CacheKey) async throws -> CacheRecord?

    /// Stores `record` under `key` at once, replacing what was there.
    /// - Parameters:
    ///   - record: The record.
    ///   - key: The key.
    /// - Throws: When the record cannot be stored.
    func store(_ record: CacheRecord, for key: CacheKey) async throws

    /// Starts storing `response` under `key`; its body follows through the writer.
    /// - Parameters:
    ///   - response: The response, with an empty body.
    ///   - key: The key.
    /// - Returns: The writer, or `nil` when the store cannot take the entry now.
    /// - Throws: When the store cannot be written.
    func makeWriter(for response: CachedResponse, key: CacheKey) async throws -> (any CacheEntryWriter)?

    /// Removes the record under `key`.
    /// - Parameter key: The key.
    /// - Throws: When the store cannot be written.
    func removeRecord(for key: CacheKey) async throws

    /// Removes every record of `partition` (e.g. on sign-out).
    /// - Parameter partition: The partition.
    /// - Throws: When the store cannot be written.
    func removeAll(partition: String) async throws

    /// Removes every record.
    /// - Throws: When the store cannot be written.
    func removeAll() async throws
}

/// Receives one response body as it streams to the caller, and makes the entry visible on ``commit()``.
public protocol CacheEntryWriter: Sendable {
    /// Appends a chunk of the body.
    /// - Parameter chunk: The bytes.
    /// - Throws: When the chunk cannot be stored; the writer is then aborted.
    func write(_ chunk: ArraySlice<UInt8>) async throws
    /// The body is complete: store the entry (replacing any entry under the key).
    /// - Throws: When the entry cannot be stored; nothing is then visible.
    func commit() async throws
    /// Abandons the entry: nothing is stored.
    func abort()
}
