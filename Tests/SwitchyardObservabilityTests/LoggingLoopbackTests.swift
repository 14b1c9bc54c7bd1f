import Foundation
import HTTPTypes
import Logging
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2)))
struct LoggingLoopbackTests {
    static func client(_ log: CapturedLog, level: Logger.Level, retry: RetryPolicy? = nil) throws -> Client {
        var configuration = ClientConfiguration(retry: retry)
        configuration.plugins.append(
            .logging(
                LoggingConfiguration(
                    logger: log.logger(level: level), redactedHeaders: ["X-Api-Key"], redactedQueryParameters: ["token"],
                    bodyPreviewBytes: 64)))
        return try Client(transport: CurlTransport(), configuration: configuration)
    }

    @Test func oneDebugLinePerAttempt() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let log = CapturedLog()
        let retry = RetryPolicy(maxAttempts: 3, backoff: RetryBackoff(random: { 0 }))
        _ = try await Self.client(log, level: .debug, retry: retry).send(try Request(url: server.url("/flaky/log/2")))
        let lines = log.messages(at: .debug)
        #expect(lines.count == 3)
        for (index, status) in [503, 503, 200].enumerated() {
            #expect(lines[index].hasPrefix("GET \(server.url("/flaky/log/2")) → \(status) in "))
            #expect(lines[index].hasSuffix("(attempt \(index + 1))"))
        }
        #expect(log.all.map(\.metadata).last?.contains("attempt=3") == true)
        #expect(log.messages(at: .trace).isEmpty)
    }

    @Test func secretsNeverReachTheLogAtAnyLevelButDoReachTheServer() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let log = CapturedLog()
        let client = try Self.client(log, level: .trace)
        let secrets = ["tok-SECRET-1", "auth-SECRET-2", "cookie-SECRET-3", "key-SECRET-4"]
        let request = try Request(
            method: .post, url: server.url("/echo?token=\(secrets[0])&page=2"),
            headers: [
                "Authorization": "Bearer \(secrets[1])", "Cookie": "session=\(secrets[2])", "X-Api-Key": secrets[3]
            ], body: HTTPBody("hello"))
        let echoed = try await client.send(request).text
        for secret in secrets { #expect(echoed.contains(secret), "the server received \(secret)") }
        let text = log.text
        for secret in secrets { #expect(!text.contains(secret), "\(secret) leaked into the log") }
        #expect(text.contains("page=2"))
        #expect(text.contains("token=<redacted>"))
        let curl = try #require(log.messages(at: .trace).first)
        #expect(curl.hasPrefix("curl -X 'POST' '\(server.url("/echo"))?token=<redacted>&page=2'"))
        #expect(curl.contains("-H 'Authorization: <redacted>'"))
        #expect(curl.hasSuffix("--data-binary 'hello'"))
    }

    @Test func aStreamedUploadIsPreviewedWithoutBeingConsumed() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let log = CapturedLog()
        let chunks = (0..<100).map { _ in Array(repeating: UInt8(ascii: "a"), count: 1024) }
        let stream = AsyncStream<[UInt8]> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        let request = try Request(method: .put, url: server.url("/echo"), body: HTTPBody(stream))
        let echo = try EchoReport(try await Self.client(log, level: .trace).send(request))
        #expect(echo.bodyLength == 100 * 1024)
        #expect(echo.bodySHA256 == sha256Hex(chunks.joined()))
        let preview = try #require(log.messages(at: .trace).first { $0.hasPrefix("→ request body") })
        #expect(preview.hasPrefix("→ request body (complete, 102400 bytes): " + String(repeating: "a", count: 64) + "…"))
        #expect(log.messages(at: .trace).contains { $0.hasPrefix("← response body (complete,") })
    }
}
