public import SwitchyardCore

/// Where a response's body chunks wait between the transport's I/O and the reader.
///
/// ``ResponseStreamState`` owns one and applies the water marks to ``memoryBytes``. Most transports
/// use ``ResponseChunks`` (memory only); a transport whose stack cannot be slowed down may supply a
/// queue that moves bytes elsewhere (URLSession on Linux spills to a temporary file).
public protocol ResponseChunkQueue {
    /// What the transport's I/O hands over: a chunk, or a platform buffer that becomes one.
    associatedtype Incoming: Sendable

    /// `true` when nothing waits to be read.
    var isEmpty: Bool { get }
    /// The bytes waiting in memory: what the water marks are compared with.
    var memoryBytes: Int { get }

    /// The size of `incoming`, in bytes.
    static func byteCount(of incoming: Incoming) -> Int
    /// `incoming` as a chunk for a reader that is already waiting (called outside the lock).
    static func chunk(from incoming: Incoming) -> ArraySlice<UInt8>

    /// Appends `incoming` at the end.
    /// - Throws: A ``SwitchyardError`` when the bytes cannot be kept; the exchange then fails with it.
    mutating func append(_ incoming: Incoming) throws(SwitchyardError)
    /// Takes the oldest bytes, `nil` when empty.
    /// - Throws: A ``SwitchyardError`` when kept bytes cannot be read back; the exchange fails with it.
    mutating func popFirst() throws(SwitchyardError) -> ArraySlice<UInt8>?
    /// Drops everything (the exchange failed).
    mutating func removeAll()
}

/// The in-memory ``ResponseChunkQueue``: chunks in arrival order, each handed out once.
///
/// Popping does not shift the array on every chunk: the front index advances and the storage is
/// compacted only when it drained or 32 chunks were taken, so a steady stream costs no copying. A
/// chunk that arrives into an empty queue waits in a slot of its own: a small response (one chunk)
/// allocates no array.
public struct ResponseChunks: ResponseChunkQueue, Sendable {
    /// The oldest chunk, when it arrived while the queue was empty; older than every chunk of ``chunks``.
    @usableFromInline var first: ArraySlice<UInt8>?
    @usableFromInline var chunks: [ArraySlice<UInt8>] = []
    @usableFromInline var front = 0

    /// The bytes queued.
    @inlinable public var memoryBytes: Int { queuedBytes }
    @usableFromInline var queuedBytes = 0

    /// An empty queue.
    @inlinable public init() {}

    /// `true` when no chunk is queued.
    @inlinable public var isEmpty: Bool { first == nil && front == chunks.count }

    /// The chunk's size.
    @inlinable public static func byteCount(of incoming: ArraySlice<UInt8>) -> Int { incoming.count }

    /// The chunk itself.
    @inlinable public static func chunk(from incoming: ArraySlice<UInt8>) -> ArraySlice<UInt8> { incoming }

    /// Queues `incoming`; never throws.
    @inlinable public mutating func append(_ incoming: ArraySlice<UInt8>) {
        if isEmpty {
            first = incoming
        } else {
            chunks.append(incoming)
        }
        queuedBytes += incoming.count
    }

    /// Takes the oldest chunk, releasing the queue's reference to it.
    @inlinable public mutating func popFirst() -> ArraySlice<UInt8>? {
        if let chunk = first {
            first = nil
            queuedBytes -= chunk.count
            return chunk
        }
        guard front < chunks.count else { return nil }
        let chunk = chunks[front]
        chunks[front] = []
        front += 1
        queuedBytes -= chunk.count
        if front == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            front = 0
        } else if front >= 32 {
            chunks.removeFirst(front)
            front = 0
        }
        return chunk
    }

    /// Drops every queued chunk.
    @inlinable public mutating func removeAll() {
        first = nil
        chunks.removeAll()
        front = 0
        queuedBytes = 0
    }
}
