import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    /// A one-second idle timeout, so a check waits for it without waiting long.
    static let shortIdleTimeout = ConformanceTransportSettings(idleTimeout: .seconds(1))

    static let idleTimeoutChecks: [ConformanceCheck] = [
        idleTimeout("idle-timeout-before-head", "/stall?tag=idle-head", tag: "idle-head", "a server silent before the head"),
        idleTimeout(
            "idle-timeout-mid-body", "/stall-body?bytes=1024&tag=idle-body", tag: "idle-body", "a server silent after 1 KiB of body")
    ]

    /// A request without a deadline to a server that goes silent ends, after the idle timeout, with
    /// `timeout` naming the idle timeout, and the connection is closed.
    private static func idleTimeout(_ id: String, _ pathAndQuery: String, tag: String, _ what: String) -> ConformanceCheck {
        ConformanceCheck(
            id, .cancellation, "Without a deadline, \(what) ends the exchange with timeout after the idle timeout",
            settings: shortIdleTimeout
        ) { h in
            let request = try h.request(.get, pathAndQuery)
            let error = try await h.expectFailure(.timeout, what) { try await h.drain(request) }
            try expect(error.message.contains("idle timeout"), "the message does not name the idle timeout: \(error.message)")
            try await h.expectDisconnect(tag: tag, after: "the idle timeout")
        }
    }
}
