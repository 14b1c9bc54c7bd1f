import HTTPTypes
import Logging
import Switchyard
import SwitchyardObservability
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// `LoggingInterceptor` over in-memory transports: which lines each level writes, what they say, and
/// that no secret of the request or the response reaches them.
@Suite struct LoggingInterceptorTests {
    /// A transport that reads the request body and answers `status` with `body` and `headers`.
    private static func answering(
        _ status: HTTPResponse.Status = .ok, body: [UInt8] = Array("fine".utf8), headers: HTTPFields = [:]
    ) -> ClosureTransport {
        ClosureTransport { request, _ in
            _ = try await request.body?.collect(upTo: 1 << 20)
            return Response(status: status, headerFields: headers, body: body)
        }
    }

    private static func client(
        _ log: CapturedLog, level: Logger.Level, transport: some Transport = answering(),
        redactedHeaders: Set<String> = [], bodyPreviewBytes: Int = 1024
    ) -> Client {
        let configuration = LoggingConfiguration(
            logger: log.logger(level: level), redactedHeaders: redactedHeaders,
            bodyPreviewBytes: bodyPreviewBytes)
        return Client(transport: transport, interceptors: [LoggingInterceptor(configuration: configuration)])
    }

    // MARK: - Levels

    @Test func aboveDebugNothingIsLoggedAndTheExchangeIsUntouched() async throws {
        let log = CapturedLog()
        let response = try await Self.client(log, level: .info).send(
            try Request(method: .post, url: "https://api.example.com/items", body: HTTPBody("payload")))
        #expect(response.text == "fine")
        #expect(log.all.isEmpty)
    }

    @Test func debugWritesOneLinePerExchangeWithMethodURLStatusAndAttempt() async throws {
        let log = CapturedLog()
        var request = try Request(url: "https://api.example.com/items?page=2")
        request.options.tags = ["search", "beta"]
        let response = try await Self.client(log, level: .debug).send(request)
        #expect(log.all.count == 1)
        let line = try #require(log.messages(at: .debug).first)
        #expect(line.hasPrefix("GET https://api.example.com/items?page=2 → 200 in "), "\(line)")
        #expect(line.hasSuffix(" ms (attempt 1)"), "\(line)")
        let metadata = try #require(log.all.first?.metadata)
        #expect(metadata == "attempt=1 exchange=\(response.context.id) tags=beta,search")
    }

    @Test func aFailureIsOneDebugLineNamingTheKindWithItsMessage() async throws {
        let log = CapturedLog()
        let transport = StubTransport.failing(SwitchyardError(.connectionFailed, "nobody listens on port 9"))
        let error = await failure(
            of: Self.client(log, level: .debug, transport: transport),
            try Request(url: "https://api.example.com/items"))
        #expect(error?.kind == .connectionFailed)
        let line = try #require(log.messages(at: .debug).first)
        #expect(line.hasPrefix("GET https://api.example.com/items → connectionFailed after "), "\(line)")
        #expect(line.hasSuffix("(attempt 1): nobody listens on port 9"), "\(line)")
        #expect(log.all.count == 1)
    }

    @Test func traceAddsHeadersAndBodyPreviewsToTheAttemptLine() async throws {
        let log = CapturedLog()
        let transport = Self.answering(body: Array("{\"ok\":true}".utf8), headers: [.contentType: "application/json"])
        let request = try Request(
            method: .post, url: "https://api.example.com/items",
            headers: ["Content-Type": "text/plain"], body: HTTPBody("hello"))
        _ = try await Self.client(log, level: .trace, transport: transport).send(request)
        #expect(log.messages(at: .debug).count == 1)
        #expect(log.all.allSatisfy { $0.level == .debug || $0.level == .trace })
        let debug = log.messages(at: .trace)
        #expect(debug.contains("→ POST https://api.example.com/items headers: Content-Type: text/plain"))
        #expect(debug.contains("→ request body (complete, 5 bytes): hello"))
        #expect(debug.contains("← 200 headers: Content-Type: application/json"))
        #expect(debug.contains("← response body (complete, 11 bytes): {\"ok\":true}"))
    }

    @Test func traceStartsWithARunnableCurlCommand() async throws {
        let log = CapturedLog()
        let request = try Request(
            method: .put, url: "https://api.example.com/items/7",
            headers: ["X-Note": "it's"], body: HTTPBody("{\"name\":\"a\"}"))
        _ = try await Self.client(log, level: .trace).send(request)
        let first = try #require(log.all.first)
        #expect(first.level == .trace)
        #expect(first.message == "curl -X 'PUT' 'https://api.example.com/items/7' -H 'X-Note: it'\\''s' --data-binary '{\"name\":\"a\"}'")

        let getLog = CapturedLog()
        _ = try await Self.client(getLog, level: .trace).send(try Request(url: "https://api.example.com/"))
        #expect(getLog.messages(at: .trace).first == "curl 'https://api.example.com/'")
    }

    @Test func aBodyOverThePreviewSizeIsLeftOutOfTheCurlCommand() async throws {
        let log = CapturedLog()
        let request = try Request(
            method: .post, url: "https://api.example.com/upload",
            body: HTTPBody(String(repeating: "x", count: 100)))
        _ = try await Self.client(log, level: .trace, bodyPreviewBytes: 10).send(request)
        let curl = try #require(log.messages(at: .trace).first)
        #expect(curl.hasSuffix("--data-binary @body.bin # body not shown: streamed, binary or over the preview size"))
        #expect(!curl.contains("xxxxxxxxxxx"))
    }

    // MARK: - Body previews

    @Test func aPreviewStopsAtTheLimitAndSaysHowLargeTheBodyWas() async throws {
        let log = CapturedLog()
        let transport = Self.answering(body: Array(String(repeating: "b", count: 300).utf8))
        _ = try await Self.client(log, level: .trace, transport: transport, bodyPreviewBytes: 8).send(
            try Request(url: "https://api.example.com/"))
        let preview = try #require(log.messages(at: .trace).first { $0.hasPrefix("← response body") })
        #expect(preview == "← response body (complete, 300 bytes): bbbbbbbb… (300 bytes)")
    }

    @Test func aPreviewNeverSplitsACharacterAndEscapesLineBreaks() async throws {
        let log = CapturedLog()
        // 1 + 1 + 2 + 3 bytes: a limit of 6 ends inside "€".
        let transport = Self.answering(body: Array("a\né€".utf8))
        _ = try await Self.client(log, level: .trace, transport: transport, bodyPreviewBytes: 6).send(
            try Request(url: "https://api.example.com/"))
        let preview = try #require(log.messages(at: .trace).first { $0.hasPrefix("← response body") })
        #expect(preview == "← response body (complete, 7 bytes): a\\né… (7 bytes)")
    }

    @Test func aBinaryBodyIsDescribedNotPrinted() async throws {
        let log = CapturedLog()
        let transport = Self.answering(body: [0x00, 0x01, 0xFF, 0xFE, 0x02])
        _ = try await Self.client(log, level: .trace, transport: transport).send(try Request(url: "https://api.example.com/"))
        let preview = try #require(log.messages(at: .trace).first { $0.hasPrefix("← response body") })
        #expect(preview == "← response body (complete, 5 bytes): <5 bytes binary>")
    }

    // MARK: - Redaction

    @Test func credentialHeadersAreMaskedInEveryLineButSentToTheTransport() async throws {
        let log = CapturedLog()
        let stub = StubTransport { _, _ in
            Response(status: .ok, headerFields: [.setCookie: "session=COOKIE-SECRET-3"], body: Array("welcome".utf8))
        }
        let request = try Request(
            url: "https://api.example.com/me?token=QUERY-SECRET-0&page=2",
            headers: [
                "Authorization": "Bearer AUTH-SECRET-1", "X-Api-Key": "KEY-SECRET-2", "X-Trace": "visible"
            ])
        _ = try await Self.client(log, level: .trace, transport: stub, redactedHeaders: ["x-api-key"]).send(request)
        let sent = try #require(stub.requests.first).head.headerFields
        #expect(sent[.authorization] == "Bearer AUTH-SECRET-1")
        #expect(sent[HTTPField.Name("X-Api-Key")!] == "KEY-SECRET-2")

        #expect(!log.text.contains("SECRET"), "a secret leaked:\n\(log.text)")
        let debug = log.messages(at: .trace)
        #expect(
            debug.contains(
                "→ GET https://api.example.com/me?token=<redacted>&page=2 headers: Authorization: <redacted>;"
                    + " X-Api-Key: <redacted>; X-Trace: visible"))
        #expect(debug.contains("← 200 headers: Set-Cookie: <redacted>"))
        let curl = try #require(log.messages(at: .trace).first)
        #expect(curl.contains("-H 'Authorization: <redacted>'"))
        #expect(curl.contains("-H 'X-Trace: visible'"))
    }

    @Test func aSecretEchoedInABodyOrAnErrorMessageIsMaskedThere() async throws {
        let log = CapturedLog()
        // The server repeats the bearer token and the query credential; the preview must not.
        let echoing = ClosureTransport { request, _ in
            let token = request.head.headerFields[.authorization] ?? ""
            return Response(status: .ok, body: Array("you sent \(token) and long-query-secret".utf8))
        }
        let request = try Request(
            url: "https://api.example.com/?access_token=long-query-secret",
            headers: ["Authorization": "Bearer abcdef123456"])
        _ = try await Self.client(log, level: .trace, transport: echoing).send(request)
        let preview = try #require(log.messages(at: .trace).first { $0.hasPrefix("← response body") })
        #expect(preview.hasSuffix(": you sent <redacted> and <redacted>"), "\(preview)")

        let failing = StubTransport.failing(SwitchyardError(.connectionFailed, "proxy refused Bearer abcdef123456"))
        let failureLog = CapturedLog()
        _ = await failure(of: Self.client(failureLog, level: .debug, transport: failing), request)
        #expect(!failureLog.text.contains("abcdef123456"), "\(failureLog.text)")
        #expect(failureLog.text.contains("proxy refused <redacted>"))
    }

    @Test func aSecretLearnedFromTheResponseHeadIsMaskedInItsBody() async throws {
        let log = CapturedLog()
        let stub = StubTransport { _, _ in
            Response(status: .ok, headerFields: [.setCookie: "sid=RESPONSE-SECRET"], body: Array("sid=RESPONSE-SECRET".utf8))
        }
        _ = try await Self.client(log, level: .trace, transport: stub).send(try Request(url: "https://api.example.com/login"))
        #expect(!log.text.contains("RESPONSE-SECRET"), "\(log.text)")
        #expect(log.messages(at: .trace).contains("← response body (complete, 19 bytes): <redacted>"))
    }

    @Test func theDefaultsCoverCommonCredentialsAndCallerNamesAreAddedLowercased() {
        let configuration = LoggingConfiguration(logger: Logger(label: "test"), redactedHeaders: ["X-Api-Key"])
        for name in ["authorization", "cookie", "set-cookie", "proxy-authorization", "x-api-key"] {
            #expect(configuration.redactedHeaders.contains(name), "\(name)")
        }
        #expect(LoggingConfiguration(logger: Logger(label: "test"), bodyPreviewBytes: -5).bodyPreviewBytes == 0)
    }
}
