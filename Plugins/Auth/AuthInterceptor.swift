import HTTPTypes
import SwitchyardCore

/// Signs each attempt with the current bearer credential and handles `401 Unauthorized`: replays
/// with a newer credential, or waits for the one refresh (see ``CredentialGate``).
///
/// Use it through `Plugin.bearerAuth(_:)`, which limits it to the ``AuthPlugin``'s scope.
struct AuthInterceptor: Interceptor {
    /// A request is replayed at most this many times: once after a newer credential, once after a refresh.
    static let maxReplays = 2

    let gate: CredentialGate

    /// Adds `Authorization: Bearer …`, and replays a refused request with the next credential.
    ///
    /// A request whose body cannot be sent twice (a single-use stream) gets the `401` back as it is.
    /// So does a request the server refuses even with a freshly refreshed credential.
    nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        var credential = try await gate.credentialForRequest(deadline: context.deadline)
        var replays = 0
        var fromRefresh = false
        while true {
            context[CredentialVersionKey.self] = credential.version
            var signed = request
            signed.head.headerFields[.authorization] = "Bearer \(credential.credential.token)"
            let response: Response
            do {
                response = try await next(signed)
            } catch {
                throw Self.withoutCredential(error)
            }
            // A credential fresh from a refresh that is refused too is not refreshed again.
            guard response.head.status == .unauthorized, !fromRefresh, replays < Self.maxReplays,
                request.body?.replayability ?? .replayable == .replayable
            else { return response }
            await response.body?.discard()
            (credential, fromRefresh) = try await gate.credentialAfterRejection(of: credential, deadline: context.deadline)
            replays += 1
        }
    }

    /// `error` without the `Authorization` field in the request head it carries (the links below
    /// record the head as they saw it, signed), so an app that logs the error's request cannot leak
    /// the token.
    static func withoutCredential(_ error: SwitchyardError) -> SwitchyardError {
        var error = error
        error.request?.headerFields[.authorization] = nil
        return error
    }
}
