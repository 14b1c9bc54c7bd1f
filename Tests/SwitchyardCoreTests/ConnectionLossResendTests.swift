import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// A reused HTTP/1.1 connection that dies after the request was sent and before any response: the
/// server may have processed the request. libcurl would send it again by itself, whatever its
/// method; a request that is not safe to repeat must reach the server once. It does on curl (the
/// transport aborts libcurl's resend) and AsyncHTTPClient (which never resends). Declared limitation:
/// URLSession on Linux, whose FoundationNetworking runs its own libcurl, sends such a request a second
/// time and the delegate cannot stop it (refusing the body rewind fails the exchange, but the second
/// head has gone out already, without its body): there the server sees the head twice, never more,
/// and never a second complete request (`SoakLoopbackTests` counts complete requests under faults).
@Suite(.timeLimit(.minutes(2))) struct ConnectionLossResendTests {
    @Test(arguments: TransportKind.allCases)
    func aPostOnAReusedConnectionThatDiesIsSentOnce(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration(retry: nil)) { client, server in
            _ = try await client.send(try Request(url: server.url("/small")))  // the connection to reuse
            let error = await #expect(throws: SwitchyardError.self) {
                try await client.send(try Request(method: .post, url: server.url("/reset"), body: HTTPBody("order")))
            }
            #expect(error?.requestWasNotProcessed == false)
            #expect(error?.kind == .connectionFailed, "\(String(describing: error))")
            // URLSession: the declared second head, which may reach the server after the failure
            // reached the caller.
            let heads = kind == .urlSession ? 2 : 1
            #expect(await eventually { server.requestCount(path: "/reset") == heads }, "\(server.requestCount(path: "/reset")) heads")
        }
    }

    /// A POST without a body, and a PATCH, are guarded the same way.
    @Test(arguments: TransportKind.allCases)
    func bodilessPostAndPatchAreSentOnce(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration(retry: nil)) { client, server in
            // URLSession: the declared second head of each, which may reach the server after the
            // failure reached the caller.
            let heads = kind == .urlSession ? 2 : 1
            for (index, method) in [HTTPRequest.Method.post, .patch].enumerated() {
                _ = try await client.send(try Request(url: server.url("/small")))
                let error = await #expect(throws: SwitchyardError.self) {
                    try await client.send(try Request(method: method, url: server.url("/reset")))
                }
                #expect(error?.kind == .connectionFailed, "\(method): \(String(describing: error))")
                #expect(
                    await eventually { server.requestCount(path: "/reset") == heads * (index + 1) },
                    "\(method): \(server.requestCount(path: "/reset")) heads in all")
            }
        }
    }

    /// What is safe to repeat may still be resent by the backend itself: a PUT, or a POST with an
    /// `Idempotency-Key`, is sent twice by libcurl (the curl transport's, and FoundationNetworking's
    /// under URLSession), the second time on a fresh connection that the server resets too, and once
    /// by AsyncHTTPClient, which never resends.
    @Test(arguments: TransportKind.allCases)
    func aKeyedPostMayBeResentByTheBackend(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration(retry: nil)) { client, server in
            _ = try await client.send(try Request(url: server.url("/small")))
            let keyed = try Request(
                method: .post, url: server.url("/reset"), headers: ["Idempotency-Key": "k-1"],
                body: HTTPBody("order"))
            let error = await #expect(throws: SwitchyardError.self) { try await client.send(keyed) }
            #expect(error?.kind == .connectionFailed, "\(String(describing: error))")
            let sends = kind == .asyncHTTPClient ? 1 : 2
            #expect(server.requestCount(path: "/reset") == sends)
            // The first send went on the reused connection; a resend, on a new one.
            #expect(server.acceptedConnections == sends)
        }
    }
}
