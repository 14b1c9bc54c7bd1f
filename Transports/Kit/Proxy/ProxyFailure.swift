public import SwitchyardCore

/// The failures of a request sent through a proxy, written once so every transport reports them
/// alike. Each is ``SwitchyardError/Kind/connectionFailed`` and names the proxy by host and port
/// only, never its credentials.
public enum ProxyFailure {
    /// The proxy answered `407 Proxy Authentication Required`.
    /// - Parameters:
    ///   - proxy: The proxy.
    ///   - host: The server the request was for.
    ///   - underlyingError: The stack's error, if any.
    public static func authenticationRequired(
        proxy: ProxyServer, host: String,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        let advice =
            proxy.credentials == nil
            ? "it needs credentials: give them in the proxy URL, http://user:password@\(proxy.hostAndPort)"
            : "it refused the credentials given for user '\(proxy.credentials?.user ?? "")'; check them"
        return .connectionFailed(
            "The proxy \(proxy.hostAndPort) answered 407 Proxy Authentication Required for a"
                + " request to \(host): \(advice).", underlyingError: underlyingError)
    }

    /// The proxy refused to forward the request or to open a tunnel (a non-2xx answer to `CONNECT`,
    /// e.g. 403 or 502 when it cannot reach the server).
    /// - Parameters:
    ///   - proxy: The proxy.
    ///   - host: The server the request was for.
    ///   - status: The proxy's status code, when the stack tells it.
    ///   - underlyingError: The stack's error, if any.
    public static func refused(
        proxy: ProxyServer, host: String, status: Int?,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        let answer = status.map { "answered \($0)" } ?? "refused"
        return .connectionFailed(
            "The proxy \(proxy.hostAndPort) \(answer) when asked for a tunnel to \(host);"
                + " check that the proxy may reach that server.", underlyingError: underlyingError)
    }

    /// No connection to the proxy could be made (``SwitchyardError/Reason/couldNotConnect``).
    /// - Parameters:
    ///   - proxy: The proxy.
    ///   - host: The server the request was for.
    ///   - detail: The stack's description.
    ///   - underlyingError: The stack's error, if any.
    public static func unreachable(
        proxy: ProxyServer, host: String, detail: String?,
        underlyingError: (any Error)? = nil
    ) -> SwitchyardError {
        var error = SwitchyardError.connectionFailed(
            "Could not connect to the proxy \(proxy.hostAndPort) (for a request to \(host))"
                + (detail.map { ": \($0)" } ?? "") + ". Is the proxy running, and is its address right?",
            underlyingError: underlyingError)
        error.reason = .couldNotConnect
        return error
    }
}
