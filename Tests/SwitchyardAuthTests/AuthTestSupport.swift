import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardAuth
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession

/// A provider whose refreshes are held until the test releases them with an outcome.
final class HeldRefreshProvider: CredentialProvider {
    struct RefreshFailed: Error, CustomStringConvertible {
        var description: String { "the refresh token has expired" }
    }

    private struct State {
        var credential: BearerCredential
        var refreshes = 0
        var outcome: Result<BearerCredential, RefreshFailed>?
        var held: [CheckedContinuation<Result<BearerCredential, RefreshFailed>, Never>] = []
    }

    private let state: Lock<State>

    init(_ credential: BearerCredential) {
        state = Lock(State(credential: credential))
    }

    /// How many times ``refresh(stale:)`` was called.
    var refreshes: Int { state.withLock { $0.refreshes } }

    /// Replaces the current credential, as an app does when it gets a token elsewhere.
    func setCurrent(_ credential: BearerCredential) {
        state.withLock { $0.credential = credential }
    }

    /// Ends the held refreshes (and any later one) with `outcome`.
    func release(with outcome: Result<BearerCredential, RefreshFailed>) {
        let held = state.withLock { state in
            state.outcome = outcome
            defer { state.held = [] }
            return state.held
        }
        for refresh in held { refresh.resume(returning: outcome) }
    }

    func current() async throws -> BearerCredential {
        state.withLock { $0.credential }
    }

    func refresh(stale: BearerCredential) async throws -> BearerCredential {
        let outcome = await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                state.refreshes += 1
                if state.outcome == nil { state.held.append(continuation) }
                return state.outcome
            }
            if let ready { continuation.resume(returning: ready) }
        }
        let credential = try outcome.get()
        setCurrent(credential)
        return credential
    }
}

/// The scope of the loopback server (`127.0.0.1`); `localhost` is another host.
let loopbackScope = RequestScope(hosts: ["127.0.0.1"])

/// Starts a server and a client over `kind` with `auth` registered, runs `body`, shuts both down.
func withAuthClient<T>(
    _ kind: TransportKind, auth: AuthPlugin, configuration: ClientConfiguration = ClientConfiguration(),
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.plugins.append(.bearerAuth(auth))
    return try await withLoopbackClient(kind, configuration: configuration, body)
}
