import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardConformance
import Testing

/// With no deadline, an exchange in which the server sends nothing for the idle timeout ends with
/// `timeout`, before the head and mid-body.
@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientIdleTimeoutTests {
    @Test func theIdleTimeoutIsOnByDefault() {
        #expect(AsyncHTTPClientTransport.Configuration().idleTimeout == IdleTimeout.default)
    }
}
