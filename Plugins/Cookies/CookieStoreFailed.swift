public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) when the cookie plugin could not read
/// or write its ``CookieStore`` (a disk jar on a full disk, a file that is not a cookie file). The
/// request itself goes on: without cookies when reading failed, with the response's cookies not
/// kept when writing failed.
public struct CookieStoreFailed: PluginEvent, Hashable {
    /// `cookieStoreFailed`.
    public var name: String { "cookieStoreFailed" }
    /// `read` or `write`.
    public let operation: String
    /// What went wrong.
    public let message: String
    /// `read: MESSAGE`.
    public var detail: String { "\(operation): \(message)" }

    /// Creates the event.
    /// - Parameters:
    ///   - operation: `read` or `write`.
    ///   - message: What went wrong.
    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }
}
