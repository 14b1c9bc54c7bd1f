public import SwitchyardCore

/// The chunks of a streamed request body between the task that produces them and the transport's
/// reader, as a pure value: events in, what to do out. ``UploadPump`` keeps it under a mutex.
///
/// - The producer may add a chunk while fewer than ``highWaterBytes`` are queued, and waits otherwise.
/// - The reader copies queued bytes out; finding the queue empty it is recorded as waiting, and the
///   next chunk, the end or a failure reports that it must be woken (libcurl: unpause; a blocking
///   reader: signal).
/// - The first failure wins: the producer's next write throws it and the reader aborts.
public struct UploadQueueState: Sendable {
    /// Queued bytes at which the producer waits.
    public let highWaterBytes: Int

    /// What a read found.
    public enum ReadResult: Equatable, Sendable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing is queued yet; the reader is now recorded as waiting.
        case empty
        /// The body is complete.
        case end
        /// The upload failed.
        case failed
    }

    /// What the producer should do before adding a chunk.
    public enum WriteRequest: Sendable {
        /// Add it now.
        case proceed
        /// Park until a read makes room (the producer is now recorded as parked).
        case park
        /// Stop: the upload failed.
        case fail(SwitchyardError)
    }

    private var chunks: [ArraySlice<UInt8>] = []
    private var front = 0
    private var queuedBytes = 0
    private var finished = false
    private var failure: SwitchyardError?
    private var readerWaiting = false
    private var writerParked = false

    /// An empty queue.
    /// - Parameter highWaterBytes: Queued bytes at which the producer waits.
    public init(highWaterBytes: Int) {
        self.highWaterBytes = highWaterBytes
    }

    // MARK: - Producer side

    /// The producer wants to add a chunk.
    public mutating func writeRequested() -> WriteRequest {
        if let failure { return .fail(failure) }
        if queuedBytes < highWaterBytes { return .proceed }
        writerParked = true
        return .park
    }

    /// Adds `chunk` (after ``WriteRequest/proceed`` or a resumed park).
    /// - Returns: Whether the reader was waiting and must be woken.
    public mutating func append(_ chunk: ArraySlice<UInt8>) -> Bool {
        chunks.append(chunk)
        queuedBytes += chunk.count
        return takeReaderWaiting()
    }

    /// The body is complete.
    /// - Returns: Whether the reader was waiting and must be woken.
    public mutating func finish() -> Bool {
        finished = true
        return takeReaderWaiting()
    }

    /// The upload failed (the first failure is kept).
    /// - Returns: Whether a parked producer must be resumed (throwing) and whether the reader must be woken.
    public mutating func fail(_ error: SwitchyardError) -> (resumeWriter: Bool, wakeReader: Bool) {
        if failure == nil { failure = error }
        defer { writerParked = false }
        return (writerParked, takeReaderWaiting())
    }

    /// The failure, once there is one.
    public var failed: SwitchyardError? { failure }

    // MARK: - Reader side

    /// Copies up to `buffer.count` queued bytes into `buffer`.
    /// - Returns: What was found, and whether a parked producer must be resumed (room was made).
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> (ReadResult, resumeWriter: Bool) {
        if failure != nil { return (.failed, false) }
        guard front < chunks.count else {
            if finished { return (.end, false) }
            readerWaiting = true
            return (.empty, false)
        }
        var written = 0
        while written < buffer.count, front < chunks.count {
            let chunk = chunks[front]
            let count = min(chunk.count, buffer.count - written)
            UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + count]).copyBytes(from: chunk.prefix(count))
            written += count
            if count == chunk.count {
                chunks[front] = []
                front += 1
            } else {
                chunks[front] = chunk.dropFirst(count)
            }
        }
        if front == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            front = 0
        }
        queuedBytes -= written
        let resumeWriter = writerParked && queuedBytes < highWaterBytes
        if resumeWriter { writerParked = false }
        return (.bytes(written), resumeWriter)
    }

    private mutating func takeReaderWaiting() -> Bool {
        defer { readerWaiting = false }
        return readerWaiting
    }
}
