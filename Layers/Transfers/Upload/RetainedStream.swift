import SwitchyardCore

/// A single-use body shared by the exchanges of one resumable upload: each exchange gets a body
/// that continues from the server's offset, served from the bytes kept after reading them (the
/// last ``capacity`` at least) and then from the stream. The server's offset can lag behind what
/// was read by what sat in buffers and on the wire when an exchange ended; within the kept bytes
/// the upload resumes, beyond them it fails with a typed error.
///
/// One exchange reads at a time: a body made by ``body(from:)`` ends (yields `nil`) once a newer
/// one exists, and a chunk its last read was still waiting for is kept for the newer one.
actor RetainedStream {
    /// The least number of bytes kept behind the newest byte read.
    let capacity: Int
    private let stream: HTTPBody
    /// The stream's iterator, made at the first read (making it spends the single-use body).
    private let source = Source()
    /// Kept chunks, oldest first; they hold the bytes from ``keptFrom`` to ``consumed``.
    private var kept: [ArraySlice<UInt8>] = []
    private var keptCount = 0
    private var keptFrom: Int64 = 0
    /// Bytes read from the stream so far.
    private var consumed: Int64 = 0
    private var finished = false
    /// Whether a read from the stream is under way (only one at a time), and who waits for it.
    private var reading = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// The generation of the newest body; older bodies end.
    private var current = 0
    /// Where the newest body is in the stream: the offset of the next byte it yields.
    private var position: Int64 = 0

    /// Keeps at least `capacity` bytes of `body` behind the newest byte read.
    init(_ body: HTTPBody, capacity: Int) {
        self.capacity = max(0, capacity)
        self.stream = body
    }

    /// A body of the stream's bytes from `offset` on, for the next exchange; every earlier body ends.
    /// - Parameter offset: The server's offset.
    /// - Returns: The body, single-use, with the remaining length when the total is known.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` when bytes before `offset` were read but
    ///   are no longer kept, or when `offset` lies beyond the bytes read.
    func body(from offset: Int64) throws(SwitchyardError) -> HTTPBody {
        guard offset >= keptFrom, offset <= consumed else {
            throw .invalidRequest(
                "The server holds \(offset) bytes of the upload, but its single-use stream keeps only bytes \(keptFrom)–\(consumed)"
                    + " (Upload.Configuration.keptStreamBytes is \(capacity)): it cannot continue from there."
                    + " Keep more of the stream, or upload a file or a replayable HTTPBody.")
        }
        current += 1
        position = offset
        let generation = current
        let remaining: HTTPBody.Length = if case .known(let total) = stream.length { .known(max(0, total - offset)) } else { .unknown }
        return HTTPBody(
            producing: { { try await self.chunk(for: generation) } }, length: remaining, replayability: .singleUse)
    }

    /// The next chunk for the body of `generation`; `nil` at the end of the stream, or once a newer
    /// body exists.
    private func chunk(for generation: Int) async throws -> ArraySlice<UInt8>? {
        while generation == current {
            if position < consumed {
                let chunk = keptChunk(at: position)
                position += Int64(chunk.count)
                return chunk
            }
            if finished { return nil }
            if reading {
                await withCheckedContinuation { waiters.append($0) }
                continue
            }
            reading = true
            defer {
                reading = false
                for waiter in waiters { waiter.resume() }
                waiters.removeAll()
            }
            let next = try await Self.read(source, of: stream)
            guard let next else {
                finished = true
                return nil
            }
            keep(next)
            // Served from the kept bytes on the next turn (or by a newer body, if one exists now).
        }
        return nil
    }

    /// The kept bytes from `offset` (between ``keptFrom`` and ``consumed``) to the end of their chunk.
    private func keptChunk(at offset: Int64) -> ArraySlice<UInt8> {
        var start = keptFrom
        for chunk in kept {
            let end = start + Int64(chunk.count)
            if offset < end { return chunk.dropFirst(Int(offset - start)) }
            start = end
        }
        return []
    }

    /// Keeps `chunk` and lets go of the oldest chunks not needed to keep ``capacity`` bytes, nor by
    /// the newest body (which may be behind, serving kept bytes, when an older body's read ends).
    private func keep(_ chunk: ArraySlice<UInt8>) {
        kept.append(chunk)
        keptCount += chunk.count
        consumed += Int64(chunk.count)
        while let oldest = kept.first, keptCount - oldest.count >= capacity, keptFrom + Int64(oldest.count) <= position {
            kept.removeFirst()
            keptCount -= oldest.count
            keptFrom += Int64(oldest.count)
        }
    }

    /// Reads the next chunk of `stream` with the iterator `source` holds (made at the first read).
    private nonisolated static func read(_ source: Source, of stream: HTTPBody) async throws -> ArraySlice<UInt8>? {
        var iterator = source.iterator ?? stream.makeAsyncIterator()
        defer { source.iterator = iterator }
        return try await iterator.next()
    }

    /// Holds the stream's iterator between reads.
    private final class Source: @unchecked Sendable {
        // `@unchecked Sendable`: `iterator` is touched only by `read(_:of:)`, which the actor calls
        // only while it marks a read as under way (`reading`), so two reads never overlap; each read
        // finishes with the iterator before the next one starts.
        var iterator: HTTPBody.AsyncIterator?
    }
}
