import SwitchyardCore
import Synchronization

/// Feeds a response body into a ``CacheEntryWriter`` as the caller reads it, so the body is
/// stored while it streams and never buffered a second time. The entry is committed when the body
/// ends, and abandoned when it fails, is read a second time, or grows beyond `limit` bytes. A
/// store that fails never fails the caller's read: the entry is abandoned and the exchange
/// publishes ``CacheStoreFailed``.
final class CacheWritingTap: BodyTap {
    let writer: any CacheEntryWriter
    let limit: Int
    let context: ExchangeContext
    let request: Request
    private let progress = Atomic<Int>(0)
    private let iterations = Atomic<Int>(0)
    private let failed = Atomic<Bool>(false)

    init(writer: any CacheEntryWriter, limit: Int, context: ExchangeContext, request: Request) {
        self.writer = writer
        self.limit = limit
        self.context = context
        self.request = request
    }

    func iterationStarted() {
        // A replayed body would be written twice into one entry: give the entry up instead.
        if iterations.add(1, ordering: .relaxed).newValue > 1 { writer.abort() }
    }

    func received(_ chunk: ArraySlice<UInt8>) async throws {
        guard progress.add(chunk.count, ordering: .relaxed).newValue <= limit else { return writer.abort() }
        guard !failed.load(ordering: .relaxed) else { return }
        do {
            try await writer.write(chunk)
        } catch {
            report(error)
        }
    }

    func ended() async throws {
        guard !failed.load(ordering: .relaxed) else { return }
        do {
            try await writer.commit()
        } catch {
            report(error)
        }
    }

    /// The writer failed (and aborted itself): said once, and nothing more is written.
    private func report(_ error: any Error) {
        guard !failed.exchange(true, ordering: .relaxed) else { return }
        context.reportCacheStoreFailure("write", error, request: request)
    }

    func failed(_ error: SwitchyardError) {
        writer.abort()
    }
}
