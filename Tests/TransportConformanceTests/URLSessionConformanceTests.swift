import Switchyard
import SwitchyardConformance
import SwitchyardURLSession
import Testing

/// The conformance suite on URLSession (FoundationNetworking on Linux), with the limitations of
/// FoundationNetworking declared: each still runs, and is reported as skipped with its reason.
@Suite("Conformance: URLSession", .serialized, .timeLimit(.minutes(5)))
struct URLSessionConformanceTests {
    #if canImport(FoundationNetworking)
    static let limitations: [String: ConformanceLimitation] = [
        "request-header-fidelity": ConformanceLimitation(
            "URLRequest keeps header fields in a case-insensitive dictionary: order and case are lost and repeats are joined with commas",
            failsWith: .expectation(containing: "X- fields received")),
        "response-header-order": ConformanceLimitation(
            "HTTPURLResponse.allHeaderFields is a dictionary: the server's field order is lost",
            failsWith: .expectation(containing: "field order")),
        "no-invented-post-fields": ConformanceLimitation(
            "FoundationNetworking adds Content-Type: application/x-www-form-urlencoded to a POST without one (an empty value is sent as an empty field, not removed)",
            failsWith: .expectation(containing: "POST fields the caller did not send: expected [], got [\"content-type\"]")),
        "streamed-upload-known-length": ConformanceLimitation(
            "a streamed body over bufferedBodyBytes is spooled to a file and sent chunked: corelibs' file upload, the one way to send its length without holding it in memory, traps the process when a transfer ends while it waits for the file",
            failsWith: .expectation(containing: "Content-Length")),
        "download-64mib-streamed": ConformanceLimitation(
            "URLSessionTask.suspend() restarts the request in FoundationNetworking, so the body spills to a temporary file instead of pausing the server (memory stays bounded)",
            failsWith: .expectation(containing: "no back-pressure")),
        "unfinished-gzip": ConformanceLimitation(
            "FoundationNetworking always has libcurl decode bodies itself (corelibs sets CURLOPT_ACCEPT_ENCODING unconditionally), and libcurl 7.88 does not report a compressed stream that stops before its end: the decoded prefix arrives as a complete body",
            failsWith: .expectation(containing: "expected protocolViolation, but it succeeded")),
        "unknown-coding-untouched": ConformanceLimitation(
            "FoundationNetworking's libcurl decodes br itself and cannot be told not to; an invalid br body fails (protocolViolation) instead of arriving as sent",
            failsWith: .error(.protocolViolation, messageContaining: "Content or Transfer-Encoding")),
        "no-reason-phrase": ConformanceLimitation(
            "FoundationNetworking's header parser refuses a status line without a reason phrase ('Failed writing header')",
            failsWith: .error(.protocolViolation, messageContaining: "Failed writing header")),
        "latin1-header": ConformanceLimitation(
            "FoundationNetworking's header parser refuses a header value that is not UTF-8 ('Failed writing header')",
            failsWith: .error(.protocolViolation, messageContaining: "Failed writing header")),
        "connection-phases": ConformanceLimitation(
            "FoundationNetworking never reports URLSessionTaskMetrics (the delegate is not called): only the first byte and the total, which the transport measures itself",
            failsWith: .expectation(
                containing: "connection fields missing: [dns, connect, requestStart, newConnections, remoteAddress]")),
        "connection-events": ConformanceLimitation(
            "FoundationNetworking never reports URLSessionTaskMetrics, where the connection's opening or reuse would show: no connection event",
            failsWith: .expectation(
                containing: "events of the first request (new connection): expected [\"connectionOpened\"], got []")),
        "empty-location": ConformanceLimitation(
            "FoundationNetworking refuses a 3xx whose Location is empty before the delegate sees the response",
            failsWith: .error(.protocolViolation, messageContaining: "without a response head"))
    ]
    /// Checks that would kill the test process: FoundationNetworking traps on these bytes from the network.
    static let crashing = [
        "chunked-trailers":
            "FoundationNetworking traps ('Transfer completed, but there's no response', NativeProtocol.swift) when libcurl hands it trailer fields after a chunked body: corelibs parses them as the start of a new response head. YardPlatformTrapTests (YardTests) pins it in a child process"
    ]
    #else
    static let limitations: [String: ConformanceLimitation] = [:]
    static let crashing: [String: String] = [:]
    #endif

    static let urlSession = ConformanceSubject(
        name: "URLSession", limitations: limitations, crashingLimitations: crashing
    ) { URLSessionTransport(configuration: .init($0)) }

    @Test(arguments: TransportConformance.checks)
    func urlSession(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.urlSession)
    }
}

extension URLSessionTransport.Configuration {
    /// The default configuration with a conformance check's settings.
    init(_ settings: ConformanceTransportSettings) {
        self.init()
        if let maxConnectionsPerHost = settings.maxConnectionsPerHost { self.maxConnectionsPerHost = maxConnectionsPerHost }
        if let idleTimeout = settings.idleTimeout { self.idleTimeout = idleTimeout }
    }
}
