import HTTPTypes
import Logging
import NIOCore
import PostgresNIO
public import SwitchyardCache
import SwitchyardCore

/// An HTTP cache every process of a fleet shares through PostgreSQL: a
/// ``SwitchyardCache/CacheStore`` for `HTTPCache`.
///
/// ```swift
/// let cache = HTTPCache(store: PostgresCacheStore(shared: shared, name: "partner-api", maxBytes: 1 << 30))
/// configuration.plugins.append(.cache(cache))
/// ```
///
/// - A response stored by one process is served to every other (the RFC 9111 rules are the
///   cache's, unchanged). Variants by `Vary` are rows of their own, as in the other stores.
/// - Bodies are rows of ``chunkBytes`` in `switchyard_cache_chunks`, written as the response streams
///   to its caller (each chunk one statement: the caller's read waits for it, so memory stays
///   bounded) and made visible by one transaction at the end that points the entry's row at the new
///   body and deletes the old one. Two processes storing one key at once never mix their bodies: the
///   last to commit wins, whole. A body up to ``inlineBodyBytes`` comes back with its entry in one
///   round trip; a larger one is a ``SwitchyardCache/StreamedBody`` read chunk by chunk as the
///   caller reads it, and fails (never ends short) if it is not all there.
/// - The fleet's entries of the store ``name`` are bounded by ``maxBytes``: after each store, the
///   oldest entries beyond it are removed (by when they were stored). Stores of other names in the
///   same database (one per service, say) are counted apart. Bodies of writers that died before committing are
///   removed an hour after they were started.
/// - When the database fails or is slow, an operation fails within the shared state's bound: the
///   cache goes on without the store (a miss, or nothing stored) and publishes `CacheStoreFailed`.
///
/// Tables: `switchyard_cache_entries` (store, partition, resource, variants, status, times, fields, body_id,
/// body_size, stored_at), `switchyard_cache_bodies` (body_id, started_at), `switchyard_cache_chunks`
/// (body_id, seq, data).
public struct PostgresCacheStore: CacheStore {
    /// The store's name: the fleet's processes that share one cache give the same name.
    public let name: String
    /// The most bytes the fleet's entries hold together (bodies plus an estimate of the rest).
    public let maxBytes: Int
    /// Bodies up to this size are read with their entry; larger ones stream.
    public let inlineBodyBytes: Int
    /// The size of one body row.
    public let chunkBytes: Int
    let shared: PostgresSharedState

    /// Creates the store.
    /// - Parameters:
    ///   - shared: The database.
    ///   - name: The store's name (default `default`): caches of other names in the database are
    ///     kept and bounded apart.
    ///   - maxBytes: The most bytes the fleet's entries hold together (default 1 GiB).
    ///   - inlineBodyBytes: Bodies up to this size are read with their entry (default 1 MiB).
    ///   - chunkBytes: The size of one body row (default 256 KiB).
    public init(
        shared: PostgresSharedState, name: String = "default", maxBytes: Int = 1 << 30, inlineBodyBytes: Int = 1 << 20,
        chunkBytes: Int = 256 << 10
    ) {
        self.shared = shared
        self.name = name
        self.maxBytes = max(0, maxBytes)
        self.inlineBodyBytes = max(0, inlineBodyBytes)
        self.chunkBytes = max(1024, chunkBytes)
    }

    /// The record under `key`; a body found incomplete makes it `nil`.
    /// - Parameter key: The key.
    /// - Returns: The record, if any.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func record(for key: CacheKey) async throws -> CacheRecord? {
        var binds = PostgresBindings()
        binds.append(name)
        binds.append(key.partition)
        binds.append(key.resource)
        binds.append(Int64(inlineBodyBytes))
        let query = PostgresQuery(unsafeSQL: Self.readSQL, binds: binds)
        typealias Row = (String?, Int, Double, Double, String, Int64?, Int64, ByteBuffer?)
        let row: Row? = try await shared.statement("read a cache entry") { client in
            var found: Row?
            for try await values in try await client.query(query, logger: PostgresSharedState.quiet).decode(Row.self) {
                found = values
            }
            return found
        }
        guard let (variants, status, requestTime, responseTime, fields, bodyID, bodySize, inline) = row else { return nil }
        if let variants {
            var lines = variants.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard !lines.isEmpty else { return nil }
            let generation = lines.removeFirst()
            return .variants(names: lines, generation: generation)
        }
        guard let headerFields = CacheEntryFields.decode(fields) else { return nil }
        var response = CachedResponse(
            status: status, headerFields: headerFields, requestTime: requestTime, responseTime: responseTime)
        if bodySize <= Int64(inlineBodyBytes) {
            let bytes = inline.map { Array($0.readableBytesView) } ?? []
            guard bytes.count == Int(bodySize) else { return nil }  // incomplete: never served
            response.body = bytes
        } else if let bodyID {
            response.streamedBody = PostgresCacheBody.streamed(bodyID, count: Int(bodySize), shared: shared)
        } else {
            return nil
        }
        return .response(response)
    }

    /// Stores `record` under `key` in one transaction.
    /// - Parameters:
    ///   - record: The record.
    ///   - key: The key.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func store(_ record: CacheRecord, for key: CacheKey) async throws {
        switch record {
        case .variants(let names, let generation):
            try await commit(key, head: .variants(([generation] + names).joined(separator: "\n")), body: nil)
        case .response(let response):
            if let streamed = response.streamedBody {
                // A refreshed head (a 304) of an entry read from here: its body stays as it is.
                guard let bodyID = Int64(streamed.identity) else { return }
                try await refreshHead(key, response: response, bodyID: bodyID)
                return
            }
            let bodyID = try await PostgresCacheBody.begin(shared)
            var offset = 0
            var seq: Int32 = 0
            while offset < response.body.count {
                let end = min(response.body.count, offset + chunkBytes)
                try await PostgresCacheBody.append(response.body[offset..<end], to: bodyID, seq: seq, shared: shared)
                offset = end
                seq += 1
            }
            try await commit(key, head: .response(response), body: (bodyID, Int64(response.body.count), seq))
        }
    }

    /// A writer that stores each chunk as a body row and makes the entry visible on commit.
    /// - Parameters:
    ///   - response: The response, with an empty body.
    ///   - key: The key.
    /// - Returns: The writer.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func makeWriter(for response: CachedResponse, key: CacheKey) async throws -> (any CacheEntryWriter)? {
        PostgresCacheEntryWriter(store: self, key: key, head: response, bodyID: try await PostgresCacheBody.begin(shared))
    }

    /// Removes the record under `key` and its body.
    /// - Parameter key: The key.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func removeRecord(for key: CacheKey) async throws {
        var binds = PostgresBindings()
        binds.append(name)
        binds.append(key.partition)
        binds.append(key.resource)
        try await remove("store = $1 AND partition = $2 AND resource = $3", binds)
    }

    /// Removes every record of `partition`.
    /// - Parameter partition: The partition.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func removeAll(partition: String) async throws {
        var binds = PostgresBindings()
        binds.append(name)
        binds.append(partition)
        try await remove("store = $1 AND partition = $2", binds)
    }

    /// Removes every record.
    /// - Throws: `sharedStateUnavailable` when the database fails or does not answer in time.
    public func removeAll() async throws {
        var binds = PostgresBindings()
        binds.append(name)
        try await remove("store = $1", binds)
    }

    // MARK: - Writing

    /// What an entry's row holds besides its body.
    enum Head {
        case variants(String)
        case response(CachedResponse)
    }

    /// Points the row of `key` at the complete body `body` (or at none), deleting the body it had, in
    /// one transaction; then removes the oldest entries beyond ``maxBytes``.
    func commit(_ key: CacheKey, head: Head, body: (id: Int64, size: Int64, chunks: Int32)?) async throws {
        let (store, partition, resource) = (name, key.partition, key.resource)
        try await shared.transaction("store a cache entry") { connection in
            if let body {
                var check = PostgresBindings()
                check.append(body.id)
                let rows = try await connection.query(
                    PostgresQuery(
                        unsafeSQL:
                            "SELECT count(*)::int8, coalesce(sum(length(data)), 0)::int8 FROM switchyard_cache_chunks WHERE body_id = $1",
                        binds: check), logger: PostgresSharedState.quiet)
                for try await (chunks, size) in rows.decode((Int64, Int64).self) where chunks != Int64(body.chunks) || size != body.size {
                    throw PostgresSharedState.PassedThrough(
                        error: SwitchyardError(
                            .sharedStateUnavailable, "The cache entry's body is incomplete in the database; it was not stored."))
                }
            }
            var binds = PostgresBindings()
            binds.append(store)
            binds.append(partition)
            binds.append(resource)
            let old = try await connection.query(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT body_id FROM switchyard_cache_entries WHERE store = $1 AND partition = $2 AND resource = $3 FOR UPDATE",
                    binds: binds),
                logger: PostgresSharedState.quiet)
            var oldBody: Int64?
            for try await (id) in old.decode(Int64?.self) { oldBody = id }
            try await connection.query(Self.upsert(store, partition, resource, head: head, body: body), logger: PostgresSharedState.quiet)
            if let oldBody, oldBody != body?.id {
                var delete = PostgresBindings()
                delete.append(oldBody)
                try await connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM switchyard_cache_bodies WHERE body_id = $1", binds: delete),
                    logger: PostgresSharedState.quiet)
            }
        }
        try? await evict()
    }

    private func refreshHead(_ key: CacheKey, response: CachedResponse, bodyID: Int64) async throws {
        var binds = PostgresBindings()
        binds.append(name)
        binds.append(key.partition)
        binds.append(key.resource)
        binds.append(response.status)
        binds.append(response.requestTime)
        binds.append(response.responseTime)
        binds.append(CacheEntryFields.encode(response.headerFields))
        binds.append(bodyID)
        let query = PostgresQuery(
            unsafeSQL: """
                UPDATE switchyard_cache_entries SET status = $4, request_time = $5, response_time = $6, fields = $7,
                    stored_at = now()
                WHERE store = $1 AND partition = $2 AND resource = $3 AND body_id = $8
                """, binds: binds)
        try await shared.statement("refresh a cache entry") { client in
            _ = try await client.query(query, logger: PostgresSharedState.quiet)
        }
    }

    private static func upsert(
        _ store: String, _ partition: String, _ resource: String, head: Head, body: (id: Int64, size: Int64, chunks: Int32)?
    ) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(store)
        binds.append(partition)
        binds.append(resource)
        switch head {
        case .variants(let text):
            binds.append(text)
            binds.append(0)
            binds.append(0.0)
            binds.append(0.0)
            binds.append("")
        case .response(let response):
            binds.append(String?.none)
            binds.append(response.status)
            binds.append(response.requestTime)
            binds.append(response.responseTime)
            binds.append(CacheEntryFields.encode(response.headerFields))
        }
        binds.append(body?.id)
        binds.append(body?.size ?? 0)
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO switchyard_cache_entries
                    (store, partition, resource, variants, status, request_time, response_time, fields, body_id, body_size, stored_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
                ON CONFLICT (store, partition, resource) DO UPDATE SET variants = $4, status = $5, request_time = $6,
                    response_time = $7, fields = $8, body_id = $9, body_size = $10, stored_at = now()
                """, binds: binds)
    }

    /// Removes the entries matching `condition` and their bodies.
    private func remove(_ condition: String, _ binds: PostgresBindings) async throws {
        let query = PostgresQuery(
            unsafeSQL: """
                WITH gone AS (DELETE FROM switchyard_cache_entries WHERE \(condition) RETURNING body_id)
                DELETE FROM switchyard_cache_bodies WHERE body_id IN (SELECT body_id FROM gone)
                """, binds: binds)
        try await shared.statement("remove cache entries") { client in
            _ = try await client.query(query, logger: PostgresSharedState.quiet)
        }
    }

    /// Removes the oldest entries beyond ``maxBytes`` (each counted as its body plus 1 KiB), and the
    /// bodies of writers that died an hour ago or more.
    private func evict() async throws {
        var binds = PostgresBindings()
        binds.append(Int64(maxBytes))
        binds.append(name)
        let query = PostgresQuery(
            unsafeSQL: """
                WITH ranked AS (
                    SELECT partition, resource,
                        sum(body_size + 1024) OVER (ORDER BY stored_at DESC, partition, resource) AS running
                    FROM switchyard_cache_entries WHERE store = $2
                ), gone AS (
                    DELETE FROM switchyard_cache_entries e USING ranked r
                    WHERE e.store = $2 AND e.partition = r.partition AND e.resource = r.resource AND r.running > $1
                    RETURNING e.body_id
                )
                DELETE FROM switchyard_cache_bodies b
                WHERE b.body_id IN (SELECT body_id FROM gone)
                    OR (b.started_at < now() - interval '1 hour'
                        AND NOT EXISTS (SELECT 1 FROM switchyard_cache_entries e WHERE e.body_id = b.body_id))
                """, binds: binds)
        try await shared.statement("evict cache entries") { client in
            _ = try await client.query(query, logger: PostgresSharedState.quiet)
        }
    }

    /// `$1` store, `$2` partition, `$3` resource, `$4` the largest body read inline.
    private static let readSQL = """
        SELECT variants, status::int8, request_time, response_time, fields, body_id, body_size,
            CASE WHEN body_size <= $4 THEN
                (SELECT string_agg(data, ''::bytea ORDER BY seq) FROM switchyard_cache_chunks c WHERE c.body_id = e.body_id)
            END
        FROM switchyard_cache_entries e WHERE store = $1 AND partition = $2 AND resource = $3
        """
}
