import SwitchyardCore

/// What a batch does when one of its operations fails.
public enum BatchMode: Sendable, Hashable {
    /// Run every operation and report each outcome.
    case collectAll
    /// Stop at the first failure: operations still running are cancelled (their exchanges stop on
    /// the wire) and those not started never start; all of them report `SwitchyardError.Kind.cancelled`.
    case failFast
}
