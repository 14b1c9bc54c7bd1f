import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestServer
import Testing

/// The idle timeout (issue: a server that accepts and never answers held a request forever): with no
/// deadline, an exchange in which the server sends nothing for the idle timeout ends with `timeout`.
@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientIdleTimeoutTests {
    @Test(arguments: ["/stall", "/stall-body?bytes=1024"])
    func aSilentServerEndsTheExchangeWithoutADeadline(_ path: String) async throws {
        try await withAHCClient(configuration: .init(idleTimeout: .seconds(1))) { client, server in
            let request = try Request(url: server.url(path))
            let error: SwitchyardError? = await {
                do {
                    for try await _ in try await client.stream(request).body {}  // the body never ends
                    return nil
                } catch {
                    return error as? SwitchyardError
                }
            }()
            #expect(error?.kind == .timeout)
            #expect(error?.message.contains("idle timeout") == true, "\(String(describing: error))")
        }
    }

    @Test func theIdleTimeoutIsOnByDefault() {
        #expect(AsyncHTTPClientTransport.Configuration().idleTimeout == IdleTimeout.default)
    }
}
