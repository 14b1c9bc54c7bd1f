import SwitchyardCore

/// The version of the Switchyard package: the top entry of `CHANGELOG.md` (a test keeps the two
/// equal), printed by `yard --version`.
public enum SwitchyardVersion {
    /// The version as `MAJOR.MINOR.PATCH`, e.g. `"0.11.0"`.
    public static let current = "0.15.0"
}
