import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardConformance
import Testing

/// The transport's idle timeout is on by default. What it does (a silent server ends the exchange
/// with `timeout`, before the head and mid-body) is the conformance checks `idle-timeout-*`, run on
/// every transport.
@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientIdleTimeoutTests {
    @Test func theIdleTimeoutIsOnByDefault() {
        #expect(AsyncHTTPClientTransport.Configuration().idleTimeout == IdleTimeout.default)
    }
}
