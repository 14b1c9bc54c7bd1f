/// Runs `operation`, but no longer than until `deadline`: the race every transport needs around
/// work whose stack does not honour the exchange's deadline itself.
///
/// The loser is cancelled: at the deadline the operation's task is cancelled (and awaited, so it
/// does not outlive this call), and when the operation finishes first the timer is, and its memory
/// released at once (``sleepReleasingTimerOnCancel(until:)``).
///
/// ```swift
/// let response = try await withDeadline(context.deadline) { try await legacyStack.fetch(request) }
/// ```
/// - Parameters:
///   - deadline: When to give up; `nil` runs `operation` without a timer (and without a task).
///   - timeoutError: The error thrown at the deadline; ``SwitchyardError/timedOut(_:)`` by default.
///   - operation: The work to bound.
/// - Returns: What `operation` returned.
/// - Throws: `timeoutError` at the deadline (at once when it has already passed), or what
///   `operation` threw.
public func withDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant?,
    timeoutError: @autoclosure () -> SwitchyardError = .timedOut(),
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    guard let deadline else { return try await operation() }
    guard ContinuousClock.now < deadline else { throw timeoutError() }
    let outcome = try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await sleepReleasingTimerOnCancel(until: deadline)
            return nil
        }
        defer { group.cancelAll() }
        // Two tasks: the first result is the operation's value, or `nil` when the timer fired first.
        return try await group.next() ?? nil
    }
    guard let outcome else { throw timeoutError() }
    return outcome
}
