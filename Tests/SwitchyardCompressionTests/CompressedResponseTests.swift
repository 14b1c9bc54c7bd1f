import HTTPTypes
import Switchyard
import SwitchyardCompression
import SwitchyardConformance
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// br and zstd response bodies through `Plugin.compressedResponses()` on every transport, against
/// the loopback server's `/coded/…` routes (bodies compressed at run time with the system libraries).
@Suite(.timeLimit(.minutes(3)))
struct CompressedResponseTests {
    static let codings = ["br", "zstd"]

    /// Runs `body` with a client that accepts br and zstd, on `kind`.
    static func withDecodingClient<T>(
        _ kind: TransportKind, _ body: (Client, LoopbackServer) async throws -> T
    ) async throws -> T {
        try await withLoopbackClient(kind, configuration: ClientConfiguration(plugins: [.compressedResponses()]), body)
    }

    /// The error `operation` throws, or `nil` when it succeeds; an error that is not a
    /// `SwitchyardError` is an issue of its own (and `nil`), never taken for a success.
    static func failure(
        sourceLocation: SourceLocation = #_sourceLocation, _ operation: () async throws -> Void
    ) async -> SwitchyardError? {
        do {
            try await operation()
            return nil
        } catch let error as SwitchyardError {
            return error
        } catch {
            Issue.record(error, "not a SwitchyardError", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Whether `kind` hands the body to libcurl's own decoders: URLSession on Linux, where
    /// FoundationNetworking always turns libcurl's decoding on (for gzip, deflate, br and zstd) and
    /// cannot be told not to. Bodies, the decoded-size limit and the layer limit agree with the other
    /// transports there; the differences below are libcurl 7.88's and are pinned as known issues.
    static func libcurlDecodes(_ kind: TransportKind) -> Bool {
        #if os(Linux)
        kind == .urlSession
        #else
        false
        #endif
    }

    /// Whether `body` is the decoded body of `/coded/{coding}/text`.
    static func isText(_ body: [UInt8], coding: String) -> Bool {
        body == Array(String(repeating: "hello, \(coding)\n", count: 1000).utf8)
    }

    /// `count` bytes of the loopback server's body pattern.
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }

    @Test(arguments: TransportKind.allCases)
    func acceptEncodingListsExactlyWhatIsDecoded(_ kind: TransportKind) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            let echo = try EchoReport(try await client.send(try Request(url: server.url("/echo"))))
            #expect(echo.values(of: "Accept-Encoding") == ["gzip, deflate, br, zstd"])
        }
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let echo = try EchoReport(try await client.send(try Request(url: server.url("/echo"))))
            #expect(echo.values(of: "Accept-Encoding") == ["gzip, deflate"])
        }
    }

    @Test(arguments: TransportKind.allCases, codings)
    func aTextBodyIsDecoded(_ kind: TransportKind, coding: String) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            let response = try await client.send(try Request(url: server.url("/coded/\(coding)/text")))
            #expect(Self.isText(response.body, coding: coding), "decoded text (\(response.body.count) bytes)")
            #expect(response.head.headerFields[.contentEncoding] == nil)
            #expect(response.head.headerFields[.contentLength] == nil)
        }
    }

    @Test(arguments: TransportKind.allCases, codings)
    func aLargeBinaryBodyIsDecodedAcrossManyChunks(_ kind: TransportKind, coding: String) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            let count = 3 << 20
            let response = try await client.send(try Request(url: server.url("/coded/\(coding)/binary?bytes=\(count)")))
            #expect(response.body.count == count)
            #expect(sha256Hex(response.body) == sha256Hex(Self.pattern(count)))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func concatenatedZstdFramesAreOneBody(_ kind: TransportKind) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            let response = try await client.send(try Request(url: server.url("/coded/zstd/frames?bytes=300000&count=3")))
            #expect(response.body.count == 300_000)
            #expect(sha256Hex(response.body) == sha256Hex(Self.pattern(300_000)))
        }
    }

    @Test(arguments: TransportKind.allCases, codings)
    func twoLayersAreDecodedAndFourAreRefused(_ kind: TransportKind, coding: String) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            let response = try await client.send(try Request(url: server.url("/coded/\(coding)/text?layers=2")))
            #expect(Self.isText(response.body, coding: coding), "decoded text (\(response.body.count) bytes)")
            let error = await Self.failure { _ = try await client.send(try Request(url: server.url("/coded/\(coding)/text?layers=4"))) }
            #expect(error?.kind == .protocolViolation)
        }
    }

    @Test(arguments: TransportKind.allCases, codings)
    func aBombFailsWithResponseTooLarge(_ kind: TransportKind, coding: String) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            var options = RequestOptions()
            options.maxResponseBytes = 1_000_000
            let request = try Request(url: server.url("/coded/\(coding)/bomb?bytes=\(64 << 20)"), options: options)
            let error = await Self.failure { _ = try await client.send(request) }
            #expect(error?.kind == .responseTooLarge)
        }
    }

    @Test(arguments: TransportKind.allCases, codings)
    func aBodyWithinTheLimitArrivesWhole(_ kind: TransportKind, coding: String) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            var options = RequestOptions()
            options.maxResponseBytes = 2 << 20
            let request = try Request(url: server.url("/coded/\(coding)/bomb?bytes=\(1 << 20)"), options: options)
            let response = try await client.send(request)
            #expect(response.body.count == 1 << 20)
            #expect(response.body.allSatisfy { $0 == 0 })
        }
    }

    @Test(arguments: TransportKind.allCases, codings)
    func aCorruptBodyIsAProtocolViolation(_ kind: TransportKind, coding: String) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            for variant in ["broken", "trailing"] {
                let error = await Self.failure { _ = try await client.send(try Request(url: server.url("/coded/\(coding)/\(variant)"))) }
                #expect(error != nil, "\(variant)")
                // Known only as what it is: a transport error where the protocol violation belongs.
                withKnownIssue("libcurl reports bytes after the end of a br stream as a write failure (transport)") {
                    #expect(error?.kind == .protocolViolation, "\(variant): \(error?.message ?? "no error")")
                } when: {
                    Self.libcurlDecodes(kind) && coding == "br" && variant == "trailing"
                } matching: { _ in
                    error?.kind == .transport
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases, codings)
    func anUnfinishedBodyIsAProtocolViolation(_ kind: TransportKind, coding: String) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            let error = await Self.failure { _ = try await client.send(try Request(url: server.url("/coded/\(coding)/truncated"))) }
            // Known only as what it is: no error at all (the decoded prefix arrives as the whole body).
            withKnownIssue("libcurl 7.88 does not report a br or zstd stream that stops before its end") {
                #expect(error?.kind == .protocolViolation, "\(String(describing: error))")
            } when: {
                Self.libcurlDecodes(kind)
            } matching: { _ in
                error == nil
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anUnknownCodingArrivesAsSent(_ kind: TransportKind) async throws {
        try await Self.withDecodingClient(kind) { client, server in
            let outcome: Result<BufferedResponse, SwitchyardError>
            do throws(SwitchyardError) {
                outcome = .success(try await client.send(try Request(url: server.url("/coded/unknown"))))
            } catch {
                outcome = .failure(error)
            }
            // Known only as what it is: the exchange fails with a protocol violation.
            try withKnownIssue("libcurl refuses a content coding it does not know (protocolViolation)") {
                let response = try outcome.get()
                #expect(response.body == Array("plain bytes\n".utf8))
                #expect(response.head.headerFields[.contentEncoding] == "x-unknown")
            } when: {
                Self.libcurlDecodes(kind)
            } matching: { issue in
                (issue.error as? SwitchyardError)?.kind == .protocolViolation
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func withoutThePluginBrotliArrivesAsSent(_ kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let response = try await client.send(try Request(url: server.url("/coded/br/text")))
            let decoded = Self.isText(response.body, coding: "br")
            let encoding = response.head.headerFields[.contentEncoding]
            // Known only as what it is: the decoded text, without its Content-Encoding.
            withKnownIssue("libcurl decodes br whether or not the request accepts it") {
                #expect(encoding == "br")
                #expect(!decoded, "the body arrived decoded")
            } when: {
                Self.libcurlDecodes(kind)
            } matching: { _ in
                decoded && encoding == nil
            }
        }
    }
}
