/// The version of the Switchyard package: the top entry of `CHANGELOG.md` (a test keeps the two
/// equal), printed by `yard --version`.
public enum SwitchyardVersion {
    /// The version as `MAJOR.MINOR.PATCH`, e.g. `"0.11.0"`.
    public static let current = "0.21.0"

    /// The `User-Agent` value the standard configuration sends, `Switchyard/<version>`; transports may
    /// prepare their form of a request that carries only this field once.
    public static let userAgent = "Switchyard/\(current)"
}
