public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) when the cache's ``CacheStore`` could not be read or
/// written (a shared store whose database is down or slow). The request goes on without it: a
/// failed read is a miss (the network answers), a failed write stores nothing.
public struct CacheStoreFailed: PluginEvent, Hashable {
    /// `cacheStoreFailed`.
    public var name: String { "cacheStoreFailed" }
    /// `read`, `write` or `remove`.
    public let operation: String
    /// What went wrong (never a password).
    public let message: String
    /// `read: MESSAGE`.
    public var detail: String { "\(operation): \(message)" }

    /// Creates the event.
    /// - Parameters:
    ///   - operation: `read`, `write` or `remove`.
    ///   - message: What went wrong.
    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }
}

extension ExchangeContext {
    /// Publishes ``CacheStoreFailed`` for `error` met while doing `operation` on the store.
    func reportCacheStoreFailure(_ operation: String, _ error: any Error, request: Request) {
        let message = (error as? SwitchyardError)?.message ?? "\(error)"
        publish(.plugin(CacheStoreFailed(operation: operation, message: message)), request: request)
    }
}
