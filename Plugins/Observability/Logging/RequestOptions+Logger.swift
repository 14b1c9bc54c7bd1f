public import Logging
public import SwitchyardCore

/// ``RequestOptions/logger``: a request's own logger, as AsyncHTTPClient takes one per call.
public enum RequestLoggerKey: RequestOptionKey {
    /// No logger of its own: links log to theirs.
    public static let defaultValue = RequestLogger(nil)
}

/// A logger carried by a request's options. Which logger is not part of a request's identity, only
/// whether it has one: two requests that differ only in their loggers are equal (they may share one
/// exchange when coalesced).
public struct RequestLogger: Sendable, Hashable {
    /// The logger, if any.
    public let logger: Logger?

    /// Wraps `logger`.
    /// - Parameter logger: The logger, or `nil`.
    public init(_ logger: Logger?) {
        self.logger = logger
    }

    /// Whether both have a logger, or neither: see the type's documentation.
    public static func == (lhs: Self, rhs: Self) -> Bool { (lhs.logger == nil) == (rhs.logger == nil) }

    /// Hashes whether there is a logger: see the type's documentation.
    public func hash(into hasher: inout Hasher) { hasher.combine(logger == nil) }
}

extension RequestOptions {
    /// This request's own logger: links that log (the logging plugin among them) write this
    /// request's lines there, at its level, instead of to their configured logger. `nil` (the
    /// default) leaves them to theirs.
    ///
    /// ```swift
    /// var request = try Request(url: "https://api.example.com/orders")
    /// request.options.logger = Logger(label: "checkout")
    /// ```
    public var logger: Logger? {
        get { self[RequestLoggerKey.self].logger }
        set { self[RequestLoggerKey.self] = RequestLogger(newValue) }
    }
}
