import HTTPTypes
import SwitchyardCore

/// Collects the body of a `206 Partial Content` as it streams to the caller and, when it is
/// complete, stores it combined with the part already stored under the key
/// (``HTTPCache/storePart(_:key:limit:)``). Aborted, over its limit or dropped, it stores nothing.
final class PartialEntryWriter: CacheEntryWriter {
    private let cache: HTTPCache
    private let key: CacheKey
    private let limit: Int
    /// `nil` once committed, aborted or over the limit.
    private let part: Lock<CachedResponse?>

    /// A writer for `part` (its head; the body follows), or `nil` when its `Content-Range` does not
    /// describe one range of a representation of known length.
    init?(cache: HTTPCache, key: CacheKey, part: CachedResponse, limit: Int) {
        guard part.status == 206, part.headerFields[.contentRange].flatMap(ContentRange.init) != nil else { return nil }
        self.cache = cache
        self.key = key
        self.limit = limit
        self.part = Lock(part)
    }

    func write(_ chunk: ArraySlice<UInt8>) throws {
        part.withLock { part in
            part?.body.append(contentsOf: chunk)
            if let body = part?.body, body.count > limit { part = nil }
        }
    }

    func commit() async throws {
        guard let complete = part.withLock({ $0.take() }) else { return }
        try await cache.storePart(complete, key: key, limit: limit)
    }

    func abort() {
        part.withLock { $0 = nil }
    }
}
