import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestServer
import SwitchyardTestSupport

/// Starts a loopback server and a transport that owns its `HTTPClient`, runs `body`, and shuts both down.
func withAHCClient<T>(
    configuration: AsyncHTTPClientTransport.Configuration = .init(),
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackClient(
        transport: AsyncHTTPClientTransport(configuration: configuration),
        shutdown: { try await $0.shutdown() }, body)
}
