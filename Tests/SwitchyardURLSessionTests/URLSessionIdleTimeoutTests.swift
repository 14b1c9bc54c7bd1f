import Switchyard
import SwitchyardConformance
import SwitchyardURLSession
import Testing

/// With no deadline, an exchange in which the server sends nothing for the idle timeout ends with
/// `timeout`, before the head and mid-body.
@Suite(.timeLimit(.minutes(2))) struct URLSessionIdleTimeoutTests {
    @Test(arguments: SilentServerProbe.paths)
    func aSilentServerEndsTheExchangeWithoutADeadline(_ path: String) async throws {
        try await withURLSessionClient(transport: URLSessionTransport(configuration: .init(idleTimeout: .seconds(1)))) { client, server in
            let error = await SilentServerProbe.error(client: client, server: server, path: path)
            #expect(error?.kind == .timeout)
            #expect(error?.message.contains("idle timeout") == true, "\(String(describing: error))")
        }
    }

    @Test func theIdleTimeoutIsOnByDefault() {
        #expect(URLSessionTransport.Configuration().idleTimeout == IdleTimeout.default)
    }
}
