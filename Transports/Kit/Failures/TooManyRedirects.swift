public import SwitchyardCore

extension SwitchyardError.Kind {
    /// More redirects than the configured limit: raised by the redirect link and by transports whose
    /// library follows redirects itself.
    public static let tooManyRedirects = Self(rawValue: "tooManyRedirects")
}

extension SwitchyardError {
    /// More redirects were met than the policy allows; `message` names the locations.
    /// - Parameter message: What happened, naming the locations.
    /// - Returns: A ``SwitchyardCore/SwitchyardError/Kind/tooManyRedirects`` error.
    public static func tooManyRedirects(_ message: String) -> Self { Self(.tooManyRedirects, message) }
}
