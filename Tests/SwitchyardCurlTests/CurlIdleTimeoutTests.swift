import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestSupport
import Testing

/// With no deadline, an exchange in which the server sends nothing for the idle timeout ends with
/// `timeout`, before the head and mid-body.
@Suite(.timeLimit(.minutes(2))) struct CurlIdleTimeoutTests {
    @Test func theIdleTimeoutIsOnByDefault() {
        #expect(CurlTransport.Configuration().idleTimeout == IdleTimeout.default)
    }
}
