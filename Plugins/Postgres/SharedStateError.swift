public import SwitchyardCore

extension SwitchyardError.Kind {
    /// The shared store (PostgreSQL) could not be reached or did not answer within its bound; the
    /// message names the operation and the server (never its password).
    public static let sharedStateUnavailable = Self(rawValue: "sharedStateUnavailable")
}
