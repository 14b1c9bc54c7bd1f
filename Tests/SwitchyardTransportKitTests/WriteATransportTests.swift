import HTTPTypes
import Switchyard
import Testing

// MARK: - The example: a transport written with the kit

/// A transport whose "network" is an in-memory table of pages. Everything but `play` — its I/O —
/// comes from the transport kit: head hand-over, chunk queue, single outcome, the end-of-exchange
/// rules, the body that cancels when dropped, the deadline and the body rule.
struct MemoryTransport: Transport {
    enum Page: Sendable {
        case body([ArraySlice<UInt8>])  // a 200 with these chunks
        case stall([ArraySlice<UInt8>])  // a 200 with these chunks, then nothing, ever
        case status(HTTPResponse.Status)  // this status, empty
        case noHead  // a clean end before any head
        case silent  // nothing at all
    }

    let pages: [String: Page]
    /// Told each time the caller's side stopped an exchange (cancelled, deadline, dropped body).
    let stops: AsyncStream<Void>.Continuation

    struct IO: ResponseStreamDriver {
        typealias Head = HTTPResponse
        typealias Queue = ResponseChunks
        let host: String
        let stops: AsyncStream<Void>.Continuation
        func stopReceiving(_ stream: ResponseStream<IO>) { stops.yield() }
    }

    func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        let stream = ResponseStream(
            driver: IO(host: request.head.authority ?? "memory", stops: stops),
            state: .init(
                queue: ResponseChunks(), highWaterBytes: 1 << 20, overflow: .keep,
                byteLimit: request.options.maxResponseBytes))
        let page = pages[request.head.path ?? "/"] ?? .status(.notFound)
        Task { Self.play(page, into: stream) }
        let head = try await withDeadline(context.deadline) { try await stream.head() }
        guard ResponseHeadRules.hasBody(method: request.head.method, status: head.status) else { return Response(head) }
        return Response(head, body: HTTPBody(streamingFrom: StreamedResponseBody(stream), length: .unknown))
    }

    /// The I/O: what a real transport's callbacks would do.
    static func play(_ page: Page, into stream: ResponseStream<IO>) {
        switch page {
        case .silent: return
        case .noHead: stream.finish(.success(()))
        case .status(let status):
            stream.deliverHead(HTTPResponse(status: status))
            stream.finish(.success(()))
        case .body(let chunks), .stall(let chunks):
            stream.deliverHead(HTTPResponse(status: .ok))
            for chunk in chunks where stream.offer(chunk) != .accepted { return }
            if case .body = page { stream.finish(.success(())) }
        }
    }
}

// MARK: - Conformance-style checks against it

@Suite(.timeLimit(.minutes(2))) struct WriteATransportTests {
    private static let chunks = (0..<64).map { index in ArraySlice((0..<1000).map { UInt8(($0 + index) % 251) }) }

    private static func transport() -> (MemoryTransport, AsyncStream<Void>) {
        let (stops, continuation) = AsyncStream.makeStream(of: Void.self)
        let pages: [String: MemoryTransport.Page] = [
            "/big": .body(chunks), "/stall": .stall([[1, 2, 3]]), "/empty": .status(.noContent),
            "/broken": .noHead, "/silent": .silent
        ]
        return (MemoryTransport(pages: pages, stops: continuation), stops)
    }

    private static func send(
        _ transport: MemoryTransport, _ path: String, method: HTTPRequest.Method = .get,
        options: RequestOptions = RequestOptions()
    ) async throws -> Response {
        let request = Request(
            HTTPRequest(method: method, scheme: "http", authority: "memory.test", path: path),
            options: options)
        return try await transport.send(request, context: ExchangeContext(options: options))
    }

    @Test func streamsEveryChunkInOrder() async throws {
        let (transport, _) = Self.transport()
        let response = try await Self.send(transport, "/big")
        let body = try #require(response.body)
        var received: [UInt8] = []
        for try await chunk in body { received += chunk }
        #expect(received == Self.chunks.flatMap { $0 })
    }

    @Test func headAnd204HaveNoBody() async throws {
        let (transport, _) = Self.transport()
        #expect(try await Self.send(transport, "/big", method: .head).body == nil)
        let empty = try await Self.send(transport, "/empty")
        #expect(empty.head.status == .noContent && empty.body == nil)
    }

    @Test func endWithoutHeadIsAProtocolViolation() async throws {
        let (transport, _) = Self.transport()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await Self.send(transport, "/broken") }
        #expect(error?.kind == .protocolViolation)
    }

    @Test func droppingAnUnfinishedBodyStopsTheIO() async throws {
        let (transport, stops) = Self.transport()
        try await Self.readFirstChunkThenDrop(transport)
        var stopped = stops.makeAsyncIterator()
        #expect(await stopped.next() != nil)  // waits for the event; the suite's time limit bounds it
    }

    private static func readFirstChunkThenDrop(_ transport: MemoryTransport) async throws {
        let response = try await send(transport, "/stall")
        var iterator = try #require(response.body).makeAsyncIterator()
        #expect(try await iterator.next() == [1, 2, 3])
    }

    @Test func bodyOverTheLimitFailsAsTooLarge() async throws {
        let (transport, _) = Self.transport()
        let response = try await Self.send(transport, "/big", options: RequestOptions(maxResponseBytes: 10_000))
        let body = try #require(response.body)
        let error = await #expect(throws: SwitchyardError.self) {
            for try await _ in body {}
        }
        #expect(error?.kind == .responseTooLarge)
    }

    @Test func deadlineEndsASilentExchangeAsTimeoutAndStopsTheIO() async throws {
        let (transport, stops) = Self.transport()
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await Self.send(transport, "/silent", options: RequestOptions(timeout: .milliseconds(20)))
        }
        #expect(error?.kind == .timeout)
        var stopped = stops.makeAsyncIterator()
        #expect(await stopped.next() != nil)
    }
}
