import SwitchyardTestServer

/// Starts a server, runs `body`, always shuts it down.
func withServer<T>(
    _ configuration: LoopbackServer.Configuration = .init(),
    _ body: (LoopbackServer) async throws -> T
) async throws -> T {
    let server = try await LoopbackServer.start(configuration)
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// Polls `condition` every 5 ms until it holds; `false` if it still does not after `timeout` (a hang guard only).
func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
