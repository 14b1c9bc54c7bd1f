/// Polls `condition` every few milliseconds until it holds, and returns whether it did before
/// `timeout` passed. The timeout only guards against a hang (long, for a busy machine); it is
/// never an expectation of speed.
/// - Parameters:
///   - timeout: How long to keep polling.
///   - condition: The condition to wait for.
/// - Returns: Whether the condition held.
@discardableResult
public func eventually(timeout: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
    let end = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < end else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// Polls `condition` every few milliseconds until it holds, for as long as `progress` keeps
/// changing, and returns whether it held. For waits on a transfer: the guard is a stall (`progress`
/// unchanged for `stallTimeout`), never the transfer's total duration, which depends on the
/// machine's load (e.g. a back-pressured body read one socket read per task hop, in a
/// ThreadSanitizer run of the whole suite on two cores).
/// - Parameters:
///   - stallTimeout: How long `progress` may stay the same before the wait gives up.
///   - progress: What moves while the awaited event is on its way (e.g. a file's size).
///   - condition: The condition to wait for.
/// - Returns: Whether the condition held.
@discardableResult
public func eventually<Progress: Equatable>(
    stallTimeout: Duration = .seconds(60), progressing progress: () -> Progress, _ condition: () -> Bool
) async -> Bool {
    var last = progress()
    var end = ContinuousClock.now + stallTimeout
    while !condition() {
        let now = ContinuousClock.now
        let current = progress()
        if current != last {
            last = current
            end = now + stallTimeout
        }
        guard now < end else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
