public import SwitchyardCore

/// Runs many operations concurrently, at most `maxConcurrency` at a time, and gathers every outcome
/// in input order — requests, endpoints, anything that throws a `SwitchyardError`.
///
/// ```swift
/// let profiles = await Batch.run(userIDs, maxConcurrency: 4, mode: .failFast) { id in
///     try await api.value(Endpoints.user(id))
/// }
/// ```
///
/// The batch is one unit: cancelling the task that awaits it cancels every operation still running.
/// For plain requests, ``SwitchyardCore/Client/send(all:maxConcurrency:mode:)`` does the same.
public enum Batch {
    /// Runs `operation` for every input.
    /// - Parameters:
    ///   - inputs: The inputs, one operation each.
    ///   - maxConcurrency: Operations running at once (at least 1).
    ///   - mode: Collect every outcome, or stop at the first failure.
    ///   - operation: The work for one input.
    /// - Returns: One outcome per input, in input order.
    public static func run<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], maxConcurrency: Int = .max, mode: BatchMode = .collectAll,
        _ operation: @escaping @Sendable (Input) async throws(SwitchyardError) -> Output
    ) async -> [Result<Output, SwitchyardError>] {
        var results = [Result<Output, SwitchyardError>](repeating: .failure(.cancelled), count: inputs.count)
        let width = max(1, min(maxConcurrency, inputs.count))
        await withTaskGroup(of: (Int, Result<Output, SwitchyardError>).self) { group in
            var nextIndex = 0
            func startNext() {
                guard nextIndex < inputs.count else { return }
                let index = nextIndex
                let input = inputs[index]
                nextIndex += 1
                group.addTask {
                    do throws(SwitchyardError) {
                        return (index, .success(try await operation(input)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            for _ in 0..<width { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                if mode == .failFast, case .failure = result {
                    group.cancelAll()
                    nextIndex = inputs.count  // start nothing more
                    continue
                }
                if !Task.isCancelled { startNext() }
            }
        }
        return results
    }
}
