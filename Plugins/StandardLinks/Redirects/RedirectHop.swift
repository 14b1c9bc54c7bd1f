public import HTTPTypes
public import SwitchyardCore

/// One redirect about to be followed, as a redirect hook (``RedirectPolicy/Hook``) sees it.
public struct RedirectHop: Sendable {
    /// The request as the call made it (before any redirect).
    public let originalRequest: Request
    /// The request that received the redirect (the original one, or a previous hop's).
    public let request: Request
    /// The 3xx response head (its `Location` is where the redirect leads).
    public let response: HTTPResponse
    /// The request ``RedirectInterceptor`` would send next: method, headers and body already
    /// adjusted for the status and the origin (see ``RedirectInterceptor``), or as changed by an
    /// earlier hook with ``RedirectDecision/followModified(_:)``.
    public let proposedRequest: Request
    /// The redirect's number in this call, starting at 1.
    public let number: Int

    /// Creates a hop (the interceptor does; tests of hooks may too).
    /// - Parameters:
    ///   - originalRequest: The request as the call made it.
    ///   - request: The request that received the redirect.
    ///   - response: The 3xx response head.
    ///   - proposedRequest: The request that would be sent next.
    ///   - number: The redirect's number, from 1.
    public init(originalRequest: Request, request: Request, response: HTTPResponse, proposedRequest: Request, number: Int) {
        self.originalRequest = originalRequest
        self.request = request
        self.response = response
        self.proposedRequest = proposedRequest
        self.number = number
    }
}
