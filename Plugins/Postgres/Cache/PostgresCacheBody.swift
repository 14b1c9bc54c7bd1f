import Logging
import NIOCore
import PostgresNIO
import SwitchyardCache
import SwitchyardCore

/// The body rows of the PostgreSQL cache store: started, appended one chunk per statement, and read
/// back as a stream.
enum PostgresCacheBody {
    /// Starts a body: its id.
    static func begin(_ shared: PostgresSharedState) async throws -> Int64 {
        try await shared.statement("start a cache body") { client in
            var id: Int64 = 0
            let rows = try await client.query(
                "INSERT INTO switchyard_cache_bodies DEFAULT VALUES RETURNING body_id", logger: PostgresSharedState.quiet)
            for try await value in rows.decode(Int64.self) { id = value }
            return id
        }
    }

    /// Appends chunk `seq` of body `id`.
    static func append(_ bytes: ArraySlice<UInt8>, to id: Int64, seq: Int32, shared: PostgresSharedState) async throws {
        var binds = PostgresBindings()
        binds.append(id)
        binds.append(seq)
        binds.append(ByteBuffer(bytes: bytes))
        let query = PostgresQuery(unsafeSQL: "INSERT INTO switchyard_cache_chunks (body_id, seq, data) VALUES ($1, $2, $3)", binds: binds)
        try await shared.statement("store a cache body") { client in
            for try await _ in try await client.query(query, logger: PostgresSharedState.quiet) {}
        }
    }

    /// Deletes body `id` and its chunks (an abandoned writer's).
    static func discard(_ id: Int64, shared: PostgresSharedState) async throws {
        var binds = PostgresBindings()
        binds.append(id)
        let query = PostgresQuery(
            unsafeSQL: """
                DELETE FROM switchyard_cache_bodies b WHERE body_id = $1
                    AND NOT EXISTS (SELECT 1 FROM switchyard_cache_entries e WHERE e.body_id = b.body_id)
                """, binds: binds)
        try await shared.statement("discard a cache body") { client in
            _ = try await client.query(query, logger: PostgresSharedState.quiet)
        }
    }

    /// Body `id` of `count` bytes, read chunk by chunk (one statement, so one snapshot of the
    /// database) as the caller reads it.
    static func streamed(_ id: Int64, count: Int, shared: PostgresSharedState) -> StreamedBody {
        StreamedBody(count: count, identity: String(id)) {
            HTTPBody(
                producing: {
                    let reader = Reader(id: id, count: count, shared: shared)
                    return { try await reader.next() }
                }, length: .known(Int64(count)), replayability: .replayable)
        }
    }

    /// One reading of a body: the query starts at the first chunk asked for.
    private final class Reader {
        let id: Int64
        let count: Int
        let shared: PostgresSharedState
        var rows: PostgresRowSequence.AsyncIterator?
        var received = 0
        var finished = false

        init(id: Int64, count: Int, shared: PostgresSharedState) {
            self.id = id
            self.count = count
            self.shared = shared
        }

        func next() async throws -> ArraySlice<UInt8>? {
            guard !finished else { return nil }
            if rows == nil {
                var binds = PostgresBindings()
                binds.append(id)
                let query = PostgresQuery(
                    unsafeSQL: "SELECT data FROM switchyard_cache_chunks WHERE body_id = $1 ORDER BY seq", binds: binds)
                let sequence = try await shared.statement("read a cache body") { client in
                    try await client.query(query, logger: PostgresSharedState.quiet)
                }
                rows = sequence.makeAsyncIterator()
            }
            guard let row = try await rows?.next() else {
                finished = true
                guard received == count else {
                    throw SwitchyardError(
                        .sharedStateUnavailable,
                        "The cached body ended after \(received) of its \(count) bytes (it was replaced or removed while it was read).")
                }
                return nil
            }
            let buffer = try row.decode(ByteBuffer.self)
            received += buffer.readableBytes
            guard received <= count else {
                finished = true
                throw SwitchyardError(.sharedStateUnavailable, "The cached body is longer than its entry says; it was not served further.")
            }
            return ArraySlice(buffer.readableBytesView)
        }
    }
}
