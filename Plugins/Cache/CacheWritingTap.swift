import SwitchyardCore
import Synchronization

/// Feeds a response body into a ``CacheEntryWriter`` as the caller reads it, so the body is
/// stored while it streams and never buffered a second time. The entry is committed when the body
/// ends, and abandoned when it fails, is read a second time, or grows beyond `limit` bytes.
final class CacheWritingTap: BodyTap {
    let writer: any CacheEntryWriter
    let limit: Int
    private let progress = Atomic<Int>(0)
    private let iterations = Atomic<Int>(0)

    init(writer: any CacheEntryWriter, limit: Int) {
        self.writer = writer
        self.limit = limit
    }

    func iterationStarted() {
        // A replayed body would be written twice into one entry: give the entry up instead.
        if iterations.add(1, ordering: .relaxed).newValue > 1 { writer.abort() }
    }

    func received(_ chunk: ArraySlice<UInt8>) throws {
        guard progress.add(chunk.count, ordering: .relaxed).newValue <= limit else { return writer.abort() }
        // A failing store must not fail the caller's read: the writer aborts itself.
        try? writer.write(chunk)
    }

    func ended() throws {
        try? writer.commit()
    }

    func failed(_ error: SwitchyardError) {
        writer.abort()
    }
}
