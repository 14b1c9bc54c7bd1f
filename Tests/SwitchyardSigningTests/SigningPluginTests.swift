import Foundation
import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardSigning
import SwitchyardTestServer
import Testing

/// The signing plugin against the loopback server: the server recomputes each signature from what
/// it received.
@Suite(.timeLimit(.minutes(2)))
struct SigningPluginTests {
    static let signer = RequestSigner(keyID: "payments-test", secret: Array("not-a-real-secret".utf8))
    static let fixedNow: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_612_345) }

    /// A client whose requests to `/echo/signed…` are signed; everything else is not.
    static func client() -> Client {
        let signing = SigningInterceptor(signer: signer, now: fixedNow)
        return Client(
            transport: CurlTransport(),
            interceptors: [
                ScopedInterceptor(scope: RequestScope(pathPrefixes: ["/echo"], tags: ["signed"]), signing)
            ])
    }

    /// Recomputes the signature from the server's view of the request.
    static func verify(_ echo: EchoReport) throws -> Bool {
        let timestamp = try #require(echo.values(of: "X-Signature-Timestamp").first.flatMap { Int64($0) })
        let bodyHash = try #require(echo.values(of: "X-Content-SHA256").first)
        #expect(bodyHash == echo.bodySHA256, "the signed body hash is the hash of the body the server received")
        let expected = signer.signatureHeaderValue(
            signer.signature(
                of: RequestSigner.stringToSign(
                    method: echo.method, pathAndQuery: echo.uri, timestamp: timestamp, bodyHash: echo.bodySHA256)))
        return echo.values(of: "X-Signature") == [expected]
    }

    @Test func aBufferedPostIsSignedOverMethodPathTimestampAndBody() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        var request = try Request(method: .post, url: server.url("/echo?account=7"), body: HTTPBody("amount=12.50"))
        request.options.tags = ["signed"]
        let echo = try EchoReport(json: try await Self.client().send(request).body)
        #expect(try Self.verify(echo))
        #expect(echo.values(of: "X-Signature-Timestamp") == ["1795612345"])
    }

    @Test func thePluginSignsEachAttemptOfTheRequestsInItsScope() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let scope = RequestScope(pathPrefixes: ["/echo"], tags: ["signed"])
        let signing = Plugin.signing(scope: scope, signer: Self.signer, now: Self.fixedNow)
        let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [signing]))
        #expect(client.chain.first { $0.origin == .plugin(SigningPlugin.name) }?.position == .attempt)
        var request = try Request(method: .post, url: server.url("/echo?account=7"), body: HTTPBody("amount=12.50"))
        request.options.tags = ["signed"]
        #expect(try Self.verify(try EchoReport(json: try await client.send(request).body)))
        let other = try EchoReport(json: try await client.send(try Request(url: server.url("/echo"))).body)
        #expect(other.values(of: "X-Signature").isEmpty)
    }

    @Test func aStreamedBodyIsCollectedSignedAndArrivesIntact() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let chunks = (0..<64).map { index in Array(repeating: UInt8(index), count: 1024) }
        let stream = AsyncStream<[UInt8]> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        var request = try Request(method: .put, url: server.url("/echo"), body: HTTPBody(stream))
        request.options.tags = ["signed"]
        let echo = try EchoReport(json: try await Self.client().send(request).body)
        #expect(echo.bodyLength == 64 * 1024)
        #expect(echo.bodySHA256 == RequestSigner.bodyHash(chunks.joined()))
        #expect(try Self.verify(echo))
    }

    @Test func aStreamTooLongToSignFailsInsteadOfGoingOutUnsigned() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let signing = SigningInterceptor(signer: Self.signer, maxStreamedBodyBytes: 1000, now: Self.fixedNow)
        let client = Client(transport: CurlTransport(), interceptors: [signing])
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(repeating: 1, count: 4000))
            continuation.finish()
        }
        let request = try Request(method: .post, url: server.url("/echo"), body: HTTPBody(stream))
        do {
            _ = try await client.send(request)
            Issue.record("a 4000-byte stream with a 1000-byte signing limit was sent")
        } catch {
            #expect(error.kind == .invalidRequest)
        }
        #expect(server.requestCount(path: "/echo") == 0)
    }

    @Test func requestsOutOfScopeAreNotSigned() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let echo = try EchoReport(json: try await Self.client().send(try Request(url: server.url("/echo"))).body)
        #expect(echo.values(of: "X-Signature").isEmpty)
        #expect(echo.values(of: "X-Signature-Timestamp").isEmpty)
    }
}
