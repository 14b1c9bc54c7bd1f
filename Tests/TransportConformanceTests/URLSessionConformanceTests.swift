import Switchyard
import SwitchyardTesting
import SwitchyardURLSession
import Testing

/// The conformance suite on URLSession (FoundationNetworking on Linux), with the limitations of
/// FoundationNetworking declared: each still runs, and is reported as skipped with its reason.
@Suite("Conformance: URLSession", .serialized, .timeLimit(.minutes(5)))
struct URLSessionConformanceTests {
    #if canImport(FoundationNetworking)
    static let limitations = [
        "request-header-fidelity":
            "URLRequest keeps header fields in a case-insensitive dictionary: order and case are lost and repeats are joined with commas",
        "response-header-order":
            "HTTPURLResponse.allHeaderFields is a dictionary: the server's field order is lost",
        "no-invented-request-fields":
            "FoundationNetworking adds Content-Type: application/x-www-form-urlencoded to a POST without one (an empty value is sent as an empty field, not removed)",
        "streamed-upload-unknown-length":
            "streamed uploads are spooled and sent with Content-Length, because corelibs blocks its shared work queue while reading a body stream",
        "download-64mib-streamed":
            "URLSessionTask.suspend() restarts the request in FoundationNetworking, so the body spills to a temporary file instead of pausing the server (memory stays bounded)",
        "unfinished-gzip":
            "FoundationNetworking always has libcurl decode bodies itself (corelibs sets CURLOPT_ACCEPT_ENCODING unconditionally), and libcurl 7.88 does not report a compressed stream that stops before its end: the decoded prefix arrives as a complete body",
        "unknown-coding-untouched":
            "FoundationNetworking's libcurl decodes br itself and cannot be told not to; an invalid br body fails (protocolViolation) instead of arriving as sent",
        "no-reason-phrase":
            "FoundationNetworking's header parser refuses a status line without a reason phrase ('Failed writing header')",
        "latin1-header":
            "FoundationNetworking's header parser refuses a header value that is not UTF-8 ('Failed writing header')",
        "empty-location":
            "FoundationNetworking refuses a 3xx whose Location is empty before the delegate sees the response"
    ]
    /// Checks that would kill the test process: FoundationNetworking traps on these bytes from the network.
    static let crashing = [
        "chunked-trailers":
            "FoundationNetworking traps ('Transfer completed, but there's no response', NativeProtocol.swift) when libcurl hands it trailer fields after a chunked body: corelibs parses them as the start of a new response head. YardHostileServerTests pins it in a child process"
    ]
    static let intermittent = [
        "response-too-large-declared":
            "FoundationNetworking's libcurl keeps reading while the refusal travels through the delegate queue; a fast 16 MiB body can end first, leaving an idle keep-alive connection instead of a closed one",
        "response-too-large-streamed":
            "without back-pressure FoundationNetworking may read the rest of a fast body before the cancellation reaches the socket, leaving the connection open"
    ]
    #else
    static let limitations: [String: String] = [:]
    static let intermittent: [String: String] = [:]
    static let crashing: [String: String] = [:]
    #endif

    static let urlSession = ConformanceSubject(
        name: "URLSession", limitations: limitations, intermittentLimitations: intermittent,
        crashingLimitations: crashing
    ) { URLSessionTransport() }

    @Test(arguments: TransportConformance.checks)
    func urlSession(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.urlSession)
    }
}
