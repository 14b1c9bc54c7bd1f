/// Polls `condition` every few milliseconds until it holds, and returns whether it did before
/// `timeout` passed. The timeout only guards against a hang (long, for a busy machine); it is
/// never an expectation of speed. A cancelled task stops polling at once and gets `false` (e.g. a
/// test past its time limit), instead of spinning until the timeout.
///
/// The condition runs in the caller's isolation, so a `@MainActor` test can poll main-actor state.
/// - Parameters:
///   - timeout: How long to keep polling.
///   - isolation: Where `condition` runs: the caller's actor, if any.
///   - condition: The condition to wait for.
/// - Returns: Whether the condition held (`false` once the task is cancelled).
@discardableResult
public func eventually(
    timeout: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    let end = ContinuousClock.now + timeout
    while await !condition() {
        guard ContinuousClock.now < end, await pause() else { return false }
    }
    return true
}

/// Polls `condition` every few milliseconds until it holds, for as long as `progress` keeps
/// changing, and returns whether it held. For waits on a transfer: the guard is a stall (`progress`
/// unchanged for `stallTimeout`), never the transfer's total duration, which depends on the
/// machine's load (e.g. a back-pressured body read one socket read per task hop, in a
/// ThreadSanitizer run of the whole suite on two cores). A cancelled task stops polling at once and
/// gets `false`.
/// - Parameters:
///   - stallTimeout: How long `progress` may stay the same before the wait gives up.
///   - isolation: Where `progress` and `condition` run: the caller's actor, if any.
///   - progress: What moves while the awaited event is on its way (e.g. a file's size).
///   - condition: The condition to wait for.
/// - Returns: Whether the condition held (`false` once the task is cancelled).
@discardableResult
public func eventually<Progress: Equatable>(
    stallTimeout: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation,
    progressing progress: () -> Progress, _ condition: () async -> Bool
) async -> Bool {
    var last = progress()
    var end = ContinuousClock.now + stallTimeout
    while await !condition() {
        let now = ContinuousClock.now
        let current = progress()
        if current != last {
            last = current
            end = now + stallTimeout
        }
        guard now < end, await pause() else { return false }
    }
    return true
}

/// Sleeps one polling interval; `false` when the task is cancelled (the sleep then returns at once).
private func pause(isolation: isolated (any Actor)? = #isolation) async -> Bool {
    do {
        try await Task.sleep(for: .milliseconds(5))
        return true
    } catch {
        return false
    }
}
