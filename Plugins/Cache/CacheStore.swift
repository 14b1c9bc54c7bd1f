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
/// leaves nothing behind. Every method may be called from any task at the same time.
public protocol CacheStore: Sendable {
    /// The record stored under `key`, or `nil` (a record found damaged is discarded and is `nil`).
    /// - Parameter key: The key.
    /// - Returns: The record, if any.
    func record(for key: CacheKey) -> CacheRecord?

    /// Stores `record` under `key` at once, replacing what was there.
    /// - Parameters:
    ///   - record: The record.
    ///   - key: The key.
    func store(_ record: CacheRecord, for key: CacheKey)

    /// Starts storing `response` under `key`; its body follows through the writer.
    /// - Parameters:
    ///   - response: The response, with an empty body.
    ///   - key: The key.
    /// - Returns: The writer, or `nil` when the store cannot take the entry now.
    func makeWriter(for response: CachedResponse, key: CacheKey) -> (any CacheEntryWriter)?

    /// Removes the record under `key`.
    /// - Parameter key: The key.
    func removeRecord(for key: CacheKey)

    /// Removes every record of `partition` (e.g. on sign-out).
    /// - Parameter partition: The partition.
    func removeAll(partition: String)

    /// Removes every record.
    func removeAll()
}

/// Receives one response body as it streams to the caller, and makes the entry visible on ``commit()``.
public protocol CacheEntryWriter: Sendable {
    /// Appends a chunk of the body.
    /// - Parameter chunk: The bytes.
    /// - Throws: When the chunk cannot be stored; the writer is then aborted.
    func write(_ chunk: ArraySlice<UInt8>) throws
    /// The body is complete: store the entry (replacing any entry under the key).
    /// - Throws: When the entry cannot be stored; nothing is then visible.
    func commit() throws
    /// Abandons the entry: nothing is stored.
    func abort()
}
