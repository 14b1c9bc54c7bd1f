public import OpenAPIRuntime
public import SwitchyardCore

extension ClientError {
    /// The Switchyard error behind this OpenAPI client error, when the transport, an interceptor or
    /// the streaming response body failed; `nil` when the failure was the generated code's own
    /// (e.g. an undocumented content type).
    ///
    /// A generated client wraps every transport error in a `ClientError` whose `underlyingError`
    /// is the original; this unwraps it so the caller can switch over `SwitchyardError.Kind`:
    ///
    /// ```swift
    /// do { _ = try await client.getGreeting(path: .init(name: "Ada")) }
    /// catch let error as ClientError where error.switchyardError?.kind == .timeout { showOffline() }
    /// ```
    public var switchyardError: SwitchyardError? { SwitchyardError(openAPIError: self) }
}
