public import HTTPTypes
import SwitchyardCore

/// Which redirects ``RedirectInterceptor`` follows and what it carries across them.
///
/// ```swift
/// var policy = RedirectPolicy()
/// policy.maxRedirects = 5
/// policy.allowsInsecureRedirects = true                      // let https:// redirect to http://
/// policy.crossOriginStrippedHeaders.insert(HTTPField.Name("X-Api-Key")!)
/// policy.hooks.append(.init(name: "stay-home", scope: payments) { hop in   // a per-hop decision
///     hop.proposedRequest.head.authority == "pay.example.com" ? .follow : .stop
/// })
/// let redirects = RedirectInterceptor(policy: policy)
/// ```
public struct RedirectPolicy: Sendable, Hashable {
    /// Redirects followed per request before failing with `SwitchyardError.Kind.tooManyRedirects`: 10.
    public static let defaultMaxRedirects = 10
    /// Headers that never follow a redirect to another origin: `Authorization`, `Cookie`,
    /// `Proxy-Authorization`.
    public static let defaultCrossOriginStrippedHeaders: Set<HTTPField.Name> = [.authorization, .cookie, .proxyAuthorization]

    /// Redirects followed per request; one more fails with `SwitchyardError.Kind.tooManyRedirects`
    /// (0: every redirect fails).
    public var maxRedirects: Int
    /// Whether an `https` request may be redirected to `http`. Default `false`: such a redirect
    /// fails with `SwitchyardError.Kind.invalidRequest` instead of sending the request, its
    /// headers and its body in clear text.
    public var allowsInsecureRedirects: Bool
    /// Headers removed when a redirect changes the scheme, host or port.
    public var crossOriginStrippedHeaders: Set<HTTPField.Name>
    /// Per-hop decisions, each for the requests of its scope (see ``Hook``); none by default.
    /// Hooks compare by name and scope only, so the policy stays `Hashable`.
    public var hooks: [Hook] = []

    /// Creates a policy; every parameter has a documented default.
    /// - Parameters:
    ///   - maxRedirects: Redirects followed per request.
    ///   - allowsInsecureRedirects: Whether `https` may redirect to `http`.
    ///   - crossOriginStrippedHeaders: Headers removed when the origin changes.
    public init(
        maxRedirects: Int = RedirectPolicy.defaultMaxRedirects,
        allowsInsecureRedirects: Bool = false,
        crossOriginStrippedHeaders: Set<HTTPField.Name> = RedirectPolicy.defaultCrossOriginStrippedHeaders
    ) {
        self.maxRedirects = maxRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.crossOriginStrippedHeaders = crossOriginStrippedHeaders
    }
}
