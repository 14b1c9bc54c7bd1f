import Switchyard
import SwitchyardConformance
import SwitchyardURLSession
import Testing

/// With no deadline, an exchange in which the server sends nothing for the idle timeout ends with
/// `timeout`, before the head and mid-body.
@Suite(.timeLimit(.minutes(2))) struct URLSessionIdleTimeoutTests {
    @Test func theIdleTimeoutIsOnByDefault() {
        #expect(URLSessionTransport.Configuration().idleTimeout == IdleTimeout.default)
    }
}
