public import HTTPTypes
public import SwitchyardCore

/// Which response statuses count as success; others become `SwitchyardError.Kind.httpStatus` errors.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.validation = StatusValidation()                       // 2xx and 3xx pass
/// configuration.validation = StatusValidation(accepted: 200..<300)    // only 2xx
/// ```
public struct StatusValidation: Sendable, Hashable {
    /// The accepted status codes.
    public var accepted: Range<Int>
    /// How many body bytes of a rejected response are kept in the error's message (the rest is
    /// not read).
    public var bodyPreviewBytes: Int
    /// How many body bytes of a rejected response are kept on the error
    /// (`SwitchyardError.responseBody`) for the app to read; `0` keeps none.
    public var keptBodyBytes: Int

    /// Creates a validation.
    /// - Parameters:
    ///   - accepted: The accepted codes (default 200..<400).
    ///   - bodyPreviewBytes: Bytes of a rejected body quoted in the error (default 256).
    ///   - keptBodyBytes: Bytes of a rejected body kept on the error (default 64 KiB).
    public init(
        accepted: Range<Int> = 200..<400, bodyPreviewBytes: Int = 256, keptBodyBytes: Int = ResponseBodyExcerpt.defaultLimit
    ) {
        self.accepted = accepted
        self.bodyPreviewBytes = bodyPreviewBytes
        self.keptBodyBytes = keptBodyBytes
    }

    /// Whether `status` is accepted.
    /// - Parameter status: The response status.
    /// - Returns: `true` when its code is in ``accepted``.
    public func accepts(_ status: HTTPResponse.Status) -> Bool {
        accepted.contains(status.code)
    }
}
