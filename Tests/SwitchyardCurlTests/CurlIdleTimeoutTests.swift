import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestSupport
import Testing

/// With no deadline, an exchange in which the server sends nothing for the idle timeout ends with
/// `timeout`, before the head and mid-body.
@Suite(.timeLimit(.minutes(2))) struct CurlIdleTimeoutTests {
    @Test(arguments: SilentServerProbe.paths)
    func aSilentServerEndsTheExchangeWithoutADeadline(_ path: String) async throws {
        try await withCurlClient(configuration: .init(idleTimeout: .seconds(1))) { client, server in
            let error = await SilentServerProbe.error(client: client, server: server, path: path)
            #expect(error?.kind == .timeout)
            #expect(error?.message.contains("idle timeout") == true, "\(String(describing: error))")
        }
    }

    @Test func theIdleTimeoutIsOnByDefault() {
        #expect(CurlTransport.Configuration().idleTimeout == IdleTimeout.default)
    }
}
