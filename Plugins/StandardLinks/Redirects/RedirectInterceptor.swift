import HTTPTypes
public import SwitchyardCore
import SwitchyardTransportKit

/// Follows HTTP redirects in the chain, identically for every transport.
///
/// ```swift
/// let client = Client(transport: CurlTransport(), interceptors: [
///     RedirectInterceptor(policy: RedirectPolicy(maxRedirects: 5)),
///     RetryInterceptor(),
/// ])
/// let response = try await client.send(try Request(url: "http://example.com/old-path"))
/// // response is the answer from wherever the chain of Location headers ended.
/// ```
///
/// ### How each redirect changes the request
///
/// | status | next request |
/// |---|---|
/// | 301, 302, 303 | `GET` without a body and without `Content-Type`, `Content-Length`, `Content-Encoding`, `Content-Language`, `Content-Location`, `Transfer-Encoding`; a `HEAD` stays `HEAD` (also for 303, as RFC 9110 §15.4.4 allows) |
/// | 307, 308 | the same method, headers and body. A single-use streamed body cannot be sent again: the 307/308 response is then returned to the caller as it is, unfollowed |
/// | 300, 304, 305, 306, others | not followed: the response is returned |
///
/// - `Location` may be absolute or relative (resolved against the current URL, RFC 3986). A
///   missing or invalid `Location`, or one that is not `http`/`https`, is not followed: the 3xx
///   response is returned unchanged.
/// - When a redirect changes the scheme, host or port, `Authorization`, `Cookie` and
///   `Proxy-Authorization` (``RedirectPolicy/crossOriginStrippedHeaders``) are removed, so
///   credentials never reach another origin.
/// - An `https` → `http` redirect fails with `SwitchyardError.Kind.invalidRequest` unless
///   ``RedirectPolicy/allowsInsecureRedirects`` is set.
/// - More than ``RedirectPolicy/maxRedirects`` redirects fail with
///   `SwitchyardError.Kind.tooManyRedirects`, naming the locations visited.
/// - The body of each followed redirect response is discarded; each hop publishes
///   a ``Redirected`` event with the target URL (user information
///   removed, query shown as `?…`).
/// - The exchange's deadline covers all hops together.
/// - ``RedirectPolicy/hooks`` decide each hop last (after the limit and the `https` → `http`
///   check): follow, follow a modified request, stop (the 3xx is returned, body unread) or fail.
///
/// ### Position in the chain
///
/// Place it above the ``RetryInterceptor``: each hop is then a fresh pass through the rest of
/// the chain, retried on its own, and per-attempt interceptors see every hop's request.
public struct RedirectInterceptor: Interceptor, RepeatsTheRestOfTheChain {
    /// What to follow and what to carry across.
    public let policy: RedirectPolicy

    /// Creates a redirect-following interceptor.
    /// - Parameter policy: Limits and header handling; the default follows up to 10 redirects.
    public init(policy: RedirectPolicy = RedirectPolicy()) {
        self.policy = policy
    }

    /// Sends `request` and follows the redirects it gets.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    ///   - next: The rest of the chain, called once per hop.
    /// - Returns: The first response that is not a followed redirect.
    /// - Throws: `SwitchyardError.Kind.tooManyRedirects`, `SwitchyardError.Kind.invalidRequest` for a
    ///   refused `https` → `http` redirect, or any error from further down the chain.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        // Most responses are not redirects: the first hop runs here and the redirects in a function
        // of their own. Inlined, following them made this link's async frame over 3 KB, allocated per call.
        let response = try await next(request)
        guard let step = step(after: response, of: request) else { return response }
        return try await follow(step, from: response, of: request, context: context, next: next)
    }

    /// The redirect `response` asks for, if it is one (out of line: see ``intercept(_:context:next:)``).
    @inline(never)
    private func step(after response: Response, of request: Request) -> RedirectStep? {
        RedirectStep(response: response.head, request: request.head, strippedHeaders: policy.crossOriginStrippedHeaders)
    }

    /// Follows the redirect of `firstStep` (the answer to `request`) and the ones after it.
    @inline(never)
    private nonisolated(nonsending) func follow(
        _ firstStep: RedirectStep, from firstResponse: Response, of request: Request, context: ExchangeContext, next: Next
    ) async throws -> Response {
        var current = request
        var visited: [String] = []  // the locations so far, built from the first redirect on
        var first: (step: RedirectStep, response: Response)? = (firstStep, firstResponse)
        while true {
            let response: Response
            let step: RedirectStep
            if let carried = first.take() {
                (step, response) = carried
            } else {
                response = try await next(current)
                guard let found = self.step(after: response, of: current) else { return response }
                step = found
            }
            if visited.isEmpty { visited.append(request.head.redactedLocation) }
            let location = step.head.redactedLocation
            if visited.count > policy.maxRedirects {
                await response.body?.discard()
                throw failure(tooManyRedirects(visited + [location]), current, response)
            }
            if step.isDowngrade(from: current.head), !policy.allowsInsecureRedirects {
                await response.body?.discard()
                throw failure(downgrade(from: current.head.redactedLocation, to: location), current, response)
            }
            guard var following = step.request(following: current) else { return response }
            if !policy.hooks.isEmpty {
                let hop = RedirectHop(
                    originalRequest: request, request: current, response: response.head,
                    proposedRequest: following, number: visited.count)
                switch await policy.decide(hop) {
                case .follow: break
                case .followModified(let modified):
                    if !modified.isValidated {
                        do throws(SwitchyardError) { try RequestValidator.validate(modified.head) } catch {
                            await response.body?.discard()
                            throw failure(error, modified, response)
                        }
                    }
                    following = modified
                case .stop: return response
                case .fail(let error):
                    await response.body?.discard()
                    throw failure(error, current, response, keepingHeads: true)
                }
            }
            await response.body?.discard()
            let target = following.head.redactedLocation
            context.publish(.plugin(Redirected(status: step.status, location: target)), request: current)
            visited.append(target)
            current = following
        }
    }

    private func failure(
        _ error: SwitchyardError, _ request: Request, _ response: Response, keepingHeads: Bool = false
    ) -> SwitchyardError {
        var error = error
        if !keepingHeads || error.request == nil { error.request = request.head }
        if !keepingHeads || error.response == nil { error.response = response.head }
        return error
    }

    private func tooManyRedirects(_ chain: [String]) -> SwitchyardError {
        let shown = chain.count <= 12 ? chain : Array(chain.prefix(6)) + ["…"] + Array(chain.suffix(5))
        return SwitchyardError(
            .tooManyRedirects,
            "Stopped after \(policy.maxRedirects) redirects"
                + " (RedirectPolicy.maxRedirects): \(shown.joined(separator: " → ")). The server may be redirecting"
                + " in a loop; raise the limit only if the chain is legitimate.")
    }

    private func downgrade(from origin: String, to target: String) -> SwitchyardError {
        .invalidRequest(
            "Refused to follow a redirect from \(origin) to \(target): it would send the request"
                + " unencrypted (https → http). Set RedirectPolicy.allowsInsecureRedirects = true to allow it.")
    }
}
