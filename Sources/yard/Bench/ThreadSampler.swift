import SwitchyardCore
import Synchronization

/// Samples the process's thread count every 50 ms until stopped, keeping the maximum.
final class ThreadSampler: Sendable {
    private let maximum = Atomic<Int>(0)
    private let sampling = Lock<Task<Void, Never>?>(nil)

    init() {
        record()
        let task = Task { [weak self] in
            while !Task.isCancelled {
                self?.record()
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        sampling.withLock { $0 = task }
    }

    private func record() {
        let count = ProcessStats.threadCount
        maximum.max(count, ordering: .relaxed)
    }

    /// Stops sampling and returns the largest count seen.
    func stop() -> Int {
        sampling.withLock { $0?.cancel() }
        record()
        return maximum.load(ordering: .relaxed)
    }
}
