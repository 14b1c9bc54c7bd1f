public import Switchyard
public import SwitchyardTestServer

/// Sends requests to a server that goes silent — before the head (`/stall`) or in the middle of the
/// body (`/stall-body`) — and reads until the exchange ends: how a transport test proves its idle
/// timeout ends an exchange that has no deadline.
///
/// ```swift
/// for path in SilentServerProbe.paths {
///     let error = await SilentServerProbe.error(client: client, server: server, path: path)
///     #expect(error?.kind == .timeout)
/// }
/// ```
public enum SilentServerProbe {
    /// A server silent before the head, and one silent after a head and 1 KiB of body.
    public static let paths = ["/stall", "/stall-body?bytes=1024"]

    /// Streams `path` (no deadline) and reads the body to its end.
    /// - Returns: The error the exchange ended with, `nil` if it succeeded.
    public static func error(client: Client, server: LoopbackServer, path: String) async -> SwitchyardError? {
        do {
            let response = try await client.stream(try Request(url: server.url(path)))
            for try await _ in response.body {}
            return nil
        } catch {
            return SwitchyardError.wrapping(error)
        }
    }
}
