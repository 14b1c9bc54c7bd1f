public import SwitchyardCore

/// What a redirect hook (``RedirectPolicy/Hook``) decides about one redirect.
public enum RedirectDecision: Sendable {
    /// Follow the redirect with the proposed request.
    case follow
    /// Follow the redirect, but send this request instead of the proposed one (re-signed, with a
    /// header added or removed, to another URL). It is validated (an invalid head fails with
    /// `SwitchyardError.Kind.invalidRequest`), then sent as given: the hook is responsible for
    /// what it carries to the new origin.
    case followModified(Request)
    /// Do not follow: the caller gets the 3xx response, body included.
    case stop
    /// Do not follow: the call fails with this error (its request and response heads are filled in
    /// when it has none).
    case fail(SwitchyardError)
}
