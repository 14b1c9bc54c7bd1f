public import SwitchyardCore

/// Chooses the ``PopUp`` of each failure of a call that is not silent, the text from a
/// ``PopUpPolicy`` and identical pop-ups coalesced within its window; the call's `failed` event
/// carries it (``SwitchyardCore/ExchangeEvent/popUp``).
///
/// It sits right inside the `events` link, so the pop-up is chosen before the `failed` event is
/// published; failures found above the chain (``SwitchyardCore/Client/reportFailure(_:of:context:)``)
/// get theirs the same way. A call that succeeds passes through untouched.
public struct PopUpInterceptor: HearsLateFailures {
    /// How failures become pop-ups.
    public let policy: PopUpPolicy
    private let coalescer: PopUpCoalescer

    /// Creates the interceptor.
    /// - Parameter policy: The texts, and the window in which identical pop-ups coalesce.
    public init(policy: PopUpPolicy) {
        self.policy = policy
        self.coalescer = PopUpCoalescer(window: policy.coalescingWindow)
    }

    /// Passes the call on; chooses a pop-up when it fails.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        do {
            return try await next(request)
        } catch {
            choosePopUp(for: error, request: request, context: context)
            throw error
        }
    }

    /// Chooses the pop-up of a failure found above the chain.
    public func hearLateFailure(_ error: SwitchyardError, of request: Request, context: ExchangeContext) {
        choosePopUp(for: error, request: request, context: context)
    }

    private func choosePopUp(for error: SwitchyardError, request: Request, context: ExchangeContext) {
        guard !request.options.isSilent, let popUp = policy.popUp(for: error, request: request) else { return }
        context[PopUpKey.self] = coalescer.coalesce(popUp)
    }
}
