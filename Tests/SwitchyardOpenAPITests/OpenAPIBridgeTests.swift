import Foundation
import HTTPTypes
import OpenAPIRuntime
import Switchyard
import SwitchyardObservability
import SwitchyardOpenAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// A generated-style OpenAPI client over `SwitchyardClientTransport`, against the loopback server,
/// on curl and AsyncHTTPClient.
@Suite(.timeLimit(.minutes(2))) struct OpenAPIBridgeTests {
    @Test(arguments: bridgeTransports) func aJSONGetRunsThroughTheWholeChain(kind: TransportKind) async throws {
        let seen = Lock<[String]>([])
        let link = ClosureInterceptor { request, context, next in
            seen.withLock { $0.append(request.head.url?.absoluteString ?? "?") }
            return try await next(request)
        }
        let configuration = ClientConfiguration(retry: nil, callInterceptors: [link])
        try await withGeneratedClient(kind, configuration: configuration) { api, _, server in
            let output = try await api.getGreeting(path: .init(name: "ada lovelace"), query: .init(excited: true))
            let echo = try output.ok.body.json
            #expect(echo.method == "GET")
            #expect(echo.uri == "/echo/greetings/ada%20lovelace?excited=true")
            #expect(echo.headers.contains(["Accept", "application/json"]) || echo.headers.contains(["accept", "application/json"]))
            #expect(seen.withLock { $0 } == [server.url("/echo/greetings/ada%20lovelace?excited=true")])
        }
    }

    @Test(arguments: bridgeTransports) func theServerURLPathPrefixesEveryOperation(kind: TransportKind) async throws {
        try await withLoopbackServer { server in
            let transport = kind.make()
            defer { Task { try? await transport.shutdown() } }
            let switchyard = Switchyard.Client(transport: transport, interceptors: [])
            let api = Client(
                serverURL: try #require(URL(string: server.url("/echo/v1/"))),
                transport: SwitchyardClientTransport(client: switchyard))
            let echo = try await api.getGreeting(path: .init(name: "ada")).ok.body.json
            #expect(echo.uri == "/echo/v1/echo/greetings/ada")
        }
    }

    @Test(arguments: bridgeTransports) func aStreamedUploadArrivesByteForByte(kind: TransportKind) async throws {
        let size = 1 << 20
        let expected = sha256Hex(patternBytes(count: size))
        let bodies = Lock<[(SwitchyardHTTPBody.Length, SwitchyardHTTPBody.Replayability, Bool)]>([])
        let inspect = ClosureInterceptor { request, context, next in
            if let body = request.body { bodies.withLock { $0.append((body.length, body.replayability, body.bufferedBytes == nil)) } }
            return try await next(request)
        }
        let configuration = ClientConfiguration(retry: nil, attemptInterceptors: [inspect])
        try await withGeneratedClient(kind, configuration: configuration) { api, _, _ in
            // A known length: sent with Content-Length.
            let known = OpenAPIHTTPBody(patternStream(count: size, chunkSize: 64 << 10), length: .known(Int64(size)))
            guard case .ok(let ok) = try await api.uploadBytes(body: .binary(known)), case .json(let echo) = ok.body else {
                Issue.record("uploadBytes did not answer 200")
                return
            }
            #expect(echo.body_length == size)
            #expect(echo.body_sha256 == expected)
            #expect(echo.headers.contains { $0.first?.lowercased() == "content-length" && $0.last == String(size) })

            // An unknown length: streamed without one (chunked on HTTP/1.1).
            let unknown = OpenAPIHTTPBody(patternStream(count: size, chunkSize: 10_000), length: .unknown)
            guard case .ok(let ok2) = try await api.uploadBytes(body: .binary(unknown)), case .json(let echo2) = ok2.body else {
                Issue.record("uploadBytes did not answer 200")
                return
            }
            #expect(echo2.body_length == size)
            #expect(echo2.body_sha256 == expected)

            // An in-memory body: replayable.
            _ = try await api.uploadBytes(body: .binary(OpenAPIHTTPBody("hello")))
        }
        let seen = bodies.withLock { $0 }
        try #require(seen.count == 3)
        #expect(seen[0].0 == .known(Int64(size)) && seen[0].1 == .singleUse && seen[0].2)
        #expect(seen[1].0 == .unknown && seen[1].1 == .singleUse && seen[1].2)
        #expect(seen[2].0 == .known(5) && seen[2].1 == .replayable)
    }

    @Test(arguments: bridgeTransports) func aDownloadStreamsChunkByChunk(kind: TransportKind) async throws {
        let size = 4 << 20
        try await withGeneratedClient(kind) { api, _, _ in
            guard case .ok(let ok) = try await api.download(path: .init(count: size)), case .binary(let body) = ok.body else {
                Issue.record("download did not answer 200")
                return
            }
            #expect(body.length == .known(Int64(size)))
            #expect(body.iterationBehavior == .single)
            var offset = 0
            var chunks = 0
            var mismatches = 0
            for try await chunk in body {
                chunks += 1
                for byte in chunk {
                    if byte != expectedPatternByte(at: offset) { mismatches += 1 }
                    offset += 1
                }
            }
            #expect(offset == size)
            #expect(mismatches == 0)
            #expect(chunks > 1)
        }
    }

    @Test(arguments: bridgeTransports) func anErrorStatusIsAResponse(kind: TransportKind) async throws {
        try await withGeneratedClient(kind) { api, _, _ in
            guard case .undocumented(let code, let payload) = try await api.getStatus(path: .init(code: 503)) else {
                Issue.record("503 was not the undocumented output")
                return
            }
            #expect(code == 503)
            let text = try await String(collecting: try #require(payload.body), upTo: 1024)
            #expect(text == "status 503\n")

            guard case .ok(let ok) = try await api.getStatus(path: .init(code: 200)), case .plainText(let body) = ok.body else {
                Issue.record("200 was not the ok output")
                return
            }
            #expect(try await String(collecting: body, upTo: 1024) == "status 200\n")

            guard case .undocumented(204, let empty) = try await api.getStatus(path: .init(code: 204)) else {
                Issue.record("204 was not the undocumented output")
                return
            }
            #expect(empty.body == nil)
        }
    }

    @Test(arguments: bridgeTransports) func aTransportFailureKeepsItsKind(kind: TransportKind) async throws {
        // A port nobody listens on, held for the whole test (a shut-down server's port could be taken
        // by another test's server).
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let closedURL = try #require(URL(string: refusing.url("")))
        let transport = kind.make()
        let api = Client(
            serverURL: closedURL, transport: SwitchyardClientTransport(client: Switchyard.Client(transport: transport, interceptors: [])))
        do {
            _ = try await api.getGreeting(path: .init(name: "ada"))
            Issue.record("the call succeeded")
        } catch let error as ClientError {
            #expect(error.operationID == "getGreeting")
            #expect(error.switchyardError?.kind == .connectionFailed)
            #expect(SwitchyardError(openAPIError: error)?.kind == .connectionFailed)
        }
        try await transport.shutdown()
    }

    @Test(arguments: bridgeTransports) func aTimeoutSetForTheCallSurfacesAsTimeout(kind: TransportKind) async throws {
        try await withGeneratedClient(kind, middlewares: [RerouteMiddleware(path: "/stall")]) { api, _, _ in
            do {
                _ = try await SwitchyardClientTransport.withRequestOptions({ $0.timeout = .milliseconds(300) }) {
                    try await api.getGreeting(path: .init(name: "ada"))
                }
                Issue.record("the call succeeded")
            } catch {
                #expect(SwitchyardError(openAPIError: error)?.kind == .timeout)
            }
        }
    }

    @Test(arguments: bridgeTransports) func theOperationIDIsATagForScopesAndEvents(kind: TransportKind) async throws {
        let department = HTTPField.Name("X-Department")!
        let greetings = Plugin(
            name: "greetings",
            scope: RequestScope(tags: [Operations.getGreeting.id]),
            interceptors: [
                ClosureInterceptor { request, context, next in
                    var request = request
                    request.head.headerFields[department] = request.options.openAPIOperationID ?? "?"
                    return try await next(request)
                }
            ]
        )
        let bus = EventBus()
        let tags = Lock<[Set<String>]>([])
        let subscription = bus.subscribe()
        let collector = Task {
            for await event in subscription where event.kind.name == "started" {
                tags.withLock { $0.append(event.tags) }
            }
        }
        defer { collector.cancel() }
        let configuration = ClientConfiguration(events: bus, retry: nil, plugins: [greetings])
        try await withGeneratedClient(kind, configuration: configuration) { api, _, _ in
            let greeting = try await api.getGreeting(path: .init(name: "ada")).ok.body.json
            #expect(greeting.headers.contains(["X-Department", "getGreeting"]))

            guard case .ok(let ok) = try await api.uploadBytes(body: .binary("x")), case .json(let upload) = ok.body else {
                Issue.record("uploadBytes did not answer 200")
                return
            }
            #expect(!upload.headers.contains { $0.first == "X-Department" })
        }
        #expect(await eventually { tags.withLock { $0.count } >= 2 })
        let seen = tags.withLock { $0 }
        #expect(seen.contains { $0.contains("getGreeting") })
        #expect(seen.contains { $0.contains("uploadBytes") })
    }

    /// Timing statistics count each operation under its operation ID (a `template:` tag), whatever its path.
    @Test(arguments: bridgeTransports) func timingStatisticsCountByOperationID(kind: TransportKind) async throws {
        let stats = TimingStats()
        var configuration = ClientConfiguration(retry: nil)
        configuration.plugins.append(.timingStats(stats))
        try await withGeneratedClient(kind, configuration: configuration) { api, _, _ in
            for name in ["ada", "grace", "alan"] { _ = try await api.getGreeting(path: .init(name: name)).ok }
        }
        #expect(
            await eventually {
                stats.snapshot().endpoints.contains { $0.path == "getGreeting" && $0.count == 3 }
            }, "\(stats.snapshot().endpoints.map { ($0.path, $0.count) })")
    }

    @Test(arguments: bridgeTransports) func cancellingTheCallStopsTheExchange(kind: TransportKind) async throws {
        try await withGeneratedClient(kind, middlewares: [RerouteMiddleware(path: "/stall")]) { api, _, server in
            let call = Task { try await api.getGreeting(path: .init(name: "ada")) }
            #expect(await eventually { server.requestCount(path: "/stall") == 1 })
            call.cancel()
            let error = await #expect(throws: ClientError.self) { try await call.value }
            #expect(error?.switchyardError?.kind == .cancelled)
        }
    }

    @Test(arguments: bridgeTransports) func cancellingWhileTheBodyStreamsClosesTheConnection(kind: TransportKind) async throws {
        let tag = "openapi-cancel-\(kind)"
        let reroute = RerouteMiddleware(path: "/bytes/100000000?tag=\(tag)")
        try await withGeneratedClient(kind, middlewares: [reroute]) { api, _, server in
            let firstChunk = AsyncStream<Void>.makeStream()
            let reader = Task {
                guard case .ok(let ok) = try await api.download(path: .init(count: 1)), case .binary(let body) = ok.body else {
                    return 0
                }
                var read = 0
                for try await chunk in body {
                    read += chunk.count
                    firstChunk.continuation.yield()
                }
                return read
            }
            for await _ in firstChunk.stream { break }
            reader.cancel()
            let error = await #expect(throws: (any Error).self) { try await reader.value }
            let unwrapped = try #require(error)
            #expect(SwitchyardError(openAPIError: unwrapped)?.kind == .cancelled)
            #expect(await server.waitForDisconnect(tag: tag, timeout: .seconds(60)))
        }
    }
}
