import Switchyard
import SwitchyardCurl

/// SwitchyardCurl's catalog: tasks that prefer the curl loop thread as their executor. Compiled
/// only (the URL is the reader's); `CurlTaskExecutorTests` runs the same shape against the
/// loopback server.
func fetchOnTheCurlLoop() async throws -> BufferedResponse {
    let transport = CurlTransport()
    let client = Client(transport: transport)
    let user = try await withTaskExecutorPreference(transport.taskExecutor) {
        try await client.send(try Request(url: "http://127.0.0.1:8080/users/1"))
    }
    try await transport.shutdown()
    return user
}
