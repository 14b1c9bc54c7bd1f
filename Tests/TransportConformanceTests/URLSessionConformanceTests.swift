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
    ]
    static let intermittent = [
        "response-too-large-declared":
            "FoundationNetworking's libcurl keeps reading while the refusal travels through the delegate queue; a fast 16 MiB body can end first, leaving an idle keep-alive connection instead of a closed one",
        "response-too-large-streamed":
            "without back-pressure FoundationNetworking may read the rest of a fast body before the cancellation reaches the socket, leaving the connection open",
    ]
    #else
    static let limitations: [String: String] = [:]
    static let intermittent: [String: String] = [:]
    #endif

    static let urlSession = ConformanceSubject(
        name: "URLSession", limitations: limitations, intermittentLimitations: intermittent
    ) { URLSessionTransport() }

    @Test(arguments: TransportConformance.checks)
    func urlSession(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.urlSession)
    }
}
