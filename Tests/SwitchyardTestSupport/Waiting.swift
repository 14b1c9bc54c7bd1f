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
