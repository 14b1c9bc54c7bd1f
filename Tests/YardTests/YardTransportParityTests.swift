import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `yard request --json` says the same thing whichever transport carries the exchange: the same
/// status, header fields (apart from hop-by-hop framing), body digest and error kind.
@Suite(.timeLimit(.minutes(5)))
struct YardTransportParityTests {
    static let transports = ["curl", "urlsession", "ahc"]

    /// Transports that cannot report the order of response fields (HTTPURLResponse keeps them in a
    /// dictionary; see the README's transport table): their fields are compared as a multiset.
    static let unorderedHeaders: Set<String> = ["urlsession"]

    /// Fields whose presence depends on how a transport frames the exchange, and `Date`, which
    /// changes between runs.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "transfer-encoding", "date"]

    /// Every conformance case that can be written as a `yard request` command line (path and flags).
    static let cases: [[String]] = [
        ["/small"], ["/status/201"], ["/status/404"], ["/status/503"], ["/status/204"],
        ["/redirect/1"], ["/early-hints"], ["/headers/many?count=5"], ["/headers/giant?bytes=20000"],
        ["/bytes/0"], ["/bytes/1048576"], ["/bytes/300000?framing=chunked"], ["/bytes/300000?framing=close"],
        ["/http10?bytes=300000"], ["/gzip"], ["/deflate"],
        ["/echo/body", "-d", "hello, parity", "-H", "Content-Type: text/plain"],
        ["/echo/body", "-X", "PUT", "-d", "put body", "-H", "Content-Type: text/plain"],
        ["/echo/body", "-X", "HEAD"],
        ["/malformed/status-line"], ["/malformed/garbage"], ["/malformed/header-line"],
        ["/malformed/truncated-length"], ["/malformed/truncated-chunked"], ["/malformed/bad-chunk"],
        ["/malformed/content-length-mismatch"], ["/malformed/empty"], ["/gzip/broken"],
        ["/reset"], ["/reset?bytes=1000"],
        ["/stall", "--timeout", "0.5"], ["/stall-body?bytes=1000", "--timeout", "0.5"],
        ["/bytes/5000000", "--max-body-bytes", "100000"],
        ["/bytes/5000000?framing=chunked", "--max-body-bytes", "100000"],
        // Hostile servers (issue 10): the same typed answer on every transport.
        ["/gzip/double"], ["/gzip/bomb?bytes=10485760", "--max-body-bytes", "1000000"],
        ["/malformed/content-length-last-wins"], ["/malformed/content-length-list"],
        ["/malformed/content-length-huge"], ["/malformed/switching-protocols"], ["/malformed/bare-lf"],
        ["/headers/giant?bytes=200000"]
    ]

    /// The parts of the JSON contract that must not depend on the transport.
    struct Observation: Equatable, CustomStringConvertible {
        var status: Int?
        var headers: [[String]]
        var sha256: String?
        var errorKind: String?

        var description: String {
            "status \(status.map(String.init) ?? "none"), error \(errorKind ?? "none"), sha \(sha256?.prefix(12) ?? ""), headers \(headers)"
        }
    }

    static func observe(_ arguments: [String], transport: String, server: LoopbackServer) async throws -> Observation {
        var arguments = arguments
        let url = server.url(arguments.removeFirst())
        let run = try await runYard(["request", url, "-o", "/dev/null", "-w", "%{json}", "--transport", transport] + arguments)
        let json = try jsonObject(run.stdout)
        let headers = (json["headers"] as? [[String]] ?? []).filter { !hopByHop.contains($0.first ?? "") }
        // A failed exchange may or may not have delivered its head before failing, depending on
        // when each backend notices the fault; what must agree then is the error kind.
        if let error = json["error"] as? [String: Any] {
            return Observation(status: nil, headers: [], sha256: nil, errorKind: error["kind"] as? String)
        }
        return Observation(
            status: json["status"] as? Int, headers: headers, sha256: json["body_sha256"] as? String, errorKind: nil)
    }

    @Test(arguments: cases)
    func sameOutcomeOnEveryTransport(_ arguments: [String]) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let reference = try await Self.observe(arguments, transport: "curl", server: server)
        for transport in Self.transports.dropFirst() {
            var observed = try await Self.observe(arguments, transport: transport, server: server)
            var expected = reference
            if Self.unorderedHeaders.contains(transport) {
                observed.headers.sort { $0.lexicographicallyPrecedes($1) }
                expected.headers.sort { $0.lexicographicallyPrecedes($1) }
            }
            #expect(observed == expected, "\(transport) differs from curl for \(arguments)")
        }
    }

    @Test func connectionRefusedIsTheSameEverywhere() async throws {
        let refusing = try RefusingPort()  // nothing listens: every call fails with connectionFailed
        let url = refusing.url("/small")
        defer { refusing.close() }
        for transport in Self.transports {
            let json = try jsonObject(
                try await runYard(["request", url, "-o", "/dev/null", "-w", "%{json}", "--transport", transport]).stdout)
            #expect((json["error"] as? [String: Any])?["kind"] as? String == "connectionFailed", "\(transport)")
        }
    }
}
