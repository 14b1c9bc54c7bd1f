public import SwitchyardCore

extension RedirectPolicy {
    /// A per-redirect decision for the requests of one scope: follow, follow a modified request,
    /// stop (return the 3xx) or fail.
    ///
    /// ```swift
    /// var redirects = RedirectPolicy()
    /// redirects.hooks.append(.init(name: "payments-stay-home", scope: payments) { hop in
    ///     guard hop.proposedRequest.head.authority == "pay.example.com" else {
    ///         return .fail(.invalidRequest("Payments never follow a redirect off pay.example.com."))
    ///     }
    ///     var signed = hop.proposedRequest
    ///     signed.head.headerFields[.authorization] = await signer.signature(for: signed.head)
    ///     return .followModified(signed)
    /// })
    /// ```
    ///
    /// ``RedirectInterceptor`` asks every hook whose ``scope`` matches the *original* request, in
    /// the order of ``RedirectPolicy/hooks``, after its own checks (limit, `https` → `http`) passed:
    /// each hook sees the request as the previous one left it; the first `stop` or `fail` ends the
    /// call. A hook runs on the exchange's task: keep it short.
    ///
    /// Equality: two hooks are equal when their names and scopes are, whatever their closures (a
    /// closure cannot be compared); this keeps ``RedirectPolicy`` `Hashable`. Give each hook a
    /// distinct name.
    public struct Hook: Sendable, Hashable {
        /// The decision's shape: given the hop, what to do.
        public typealias Decide = @Sendable (RedirectHop) async -> RedirectDecision

        /// A name for equality and for reading a policy (e.g. `payments-stay-home`).
        public let name: String
        /// The requests (as the call made them) whose redirects this hook decides.
        public let scope: RequestScope
        /// The decision.
        public let decide: Decide

        /// Creates a hook.
        /// - Parameters:
        ///   - name: A name, distinct among the policy's hooks.
        ///   - scope: The requests whose redirects it decides; every request by default.
        ///   - decide: The decision for each redirect.
        public init(name: String, scope: RequestScope = .all, _ decide: @escaping Decide) {
            self.name = name
            self.scope = scope
            self.decide = decide
        }

        /// Equal when the names and scopes are (closures are not compared).
        public static func == (lhs: Hook, rhs: Hook) -> Bool { lhs.name == rhs.name && lhs.scope == rhs.scope }

        /// Hashes the name and scope.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(scope)
        }
    }

    /// The hooks' combined decision on `hop`: `.follow` when none applies.
    func decide(_ hop: RedirectHop) async -> RedirectDecision {
        var proposed = hop.proposedRequest
        var modified = false
        for hook in hooks where hook.scope.matches(hop.originalRequest) {
            let current = RedirectHop(
                originalRequest: hop.originalRequest, request: hop.request, response: hop.response,
                proposedRequest: proposed, number: hop.number)
            switch await hook.decide(current) {
            case .follow: continue
            case .followModified(let request):
                proposed = request
                modified = true
            case .stop: return .stop
            case .fail(let error): return .fail(error)
            }
        }
        return modified ? .followModified(proposed) : .follow
    }
}
