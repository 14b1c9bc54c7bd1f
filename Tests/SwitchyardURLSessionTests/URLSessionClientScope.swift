import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession

/// Starts a loopback server and a URLSession client, runs `body`, and shuts the server down.
func withURLSessionClient<T>(
    transport: URLSessionTransport = URLSessionTransport(),
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackClient(transport: transport, body)
}
