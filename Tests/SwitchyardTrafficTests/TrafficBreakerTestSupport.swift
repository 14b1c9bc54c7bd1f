import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport

/// Starts a loopback server and an assembled client over a `kind` transport, runs `body`, then
/// shuts the transport and the server down, whether or not `body` threw.
func withTrafficTestClient<T>(
    _ kind: TransportKind, configuration: ClientConfiguration,
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackClient(kind, configuration: configuration, body)
}

/// A clock a test moves by hand, for breakers whose cool-down must not pass on its own.
final class ManualTestClock: Sendable {
    private let offset = Lock<Duration>(.zero)
    private let start = ContinuousClock.now

    /// The clock's time: the real start plus what the test advanced.
    var now: ContinuousClock.Instant { start.advanced(by: offset.withLock { $0 }) }

    /// Moves the clock forward.
    func advance(by duration: Duration) { offset.withLock { $0 += duration } }
}

/// The `host:port` the loopback server's URLs carry (the breaker's key for them).
func breakerHost(_ server: LoopbackServer) -> String {
    String(server.baseURL.dropFirst("http://".count))
}

/// Sends `request` and returns the error kind it failed with, or `nil` when a response came back.
func failureKind(of client: Client, _ request: Request) async -> SwitchyardError.Kind? {
    await failure(of: client, request)?.kind
}
