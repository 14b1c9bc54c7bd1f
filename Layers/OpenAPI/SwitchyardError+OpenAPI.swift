import OpenAPIRuntime
public import SwitchyardCore

extension SwitchyardError {
    /// Finds the Switchyard error in an error thrown by a generated OpenAPI client: the error
    /// itself, or the `underlyingError` of the `ClientError` (or nested `ClientError`s) wrapping it.
    /// - Parameter openAPIError: What the generated client's method threw.
    /// - Returns: `nil` when no Switchyard error is inside (the failure was in generated code).
    public init?(openAPIError: any Error) {
        var current: any Error = openAPIError
        // Bounded: a ClientError is never wrapped more than a few times.
        for _ in 0..<8 {
            if let error = current as? SwitchyardError {
                self = error
                return
            }
            guard let wrapped = current as? ClientError else { return nil }
            current = wrapped.underlyingError
        }
        return nil
    }
}
