import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// Records the order in which interceptors see requests and responses.
private final class OrderLog: Sendable {
    private let entries = Lock<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private struct TaggingInterceptor: Interceptor {
    let name: String
    let log: OrderLog
    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        log.add("\(name)↓")
        var request = request
        request.head.headerFields.append(HTTPField(name: HTTPField.Name("X-Seen-By")!, value: name))
        let response = try await next(request)
        log.add("\(name)↑")
        return response
    }
}

private struct BoomError: Error {}

@Suite struct PipelineTests {
    @Test func interceptorsRunInOrderDownAndInReverseUp() async throws {
        let log = OrderLog()
        let stub = StubTransport { request, _ in
            log.add("transport")
            let seen = request.head.headerFields[values: HTTPField.Name("X-Seen-By")!]
            return Response(status: .ok, body: Array(seen.joined(separator: ",").utf8))
        }
        let client = Client(
            transport: stub,
            interceptors: [
                TaggingInterceptor(name: "A", log: log),
                TaggingInterceptor(name: "B", log: log),
                TaggingInterceptor(name: "C", log: log)
            ])
        let response = try await client.send(try Request(url: "http://example.test/"))
        #expect(log.all == ["A↓", "B↓", "C↓", "transport", "C↑", "B↑", "A↑"])
        #expect(response.text == "A,B,C")
    }

    @Test func shortCircuitNeverReachesTheTransport() async throws {
        let stub = StubTransport.status(.ok)
        let cache = ClosureInterceptor { _, _, _ in Response(status: .ok, body: Array("cached".utf8)) }
        let client = Client(transport: stub, interceptors: [cache])
        let response = try await client.send(try Request(url: "http://example.test/"))
        #expect(response.text == "cached")
        #expect(stub.callCount == 0)
    }

    @Test func anInterceptorMayCallNextTwice() async throws {
        let calls = Lock(0)
        let stub = StubTransport { _, _ in
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            return Response(status: call == 1 ? .serviceUnavailable : .ok, body: [])
        }
        let retryOnce = ClosureInterceptor { request, context, next in
            let first = try await next(request)
            guard first.head.status == .serviceUnavailable else { return first }
            context.attempt += 1
            return try await next(request)
        }
        let client = Client(transport: stub, interceptors: [retryOnce])
        let response = try await client.send(try Request(url: "http://example.test/"))
        #expect(response.head.status == .ok)
        #expect(stub.callCount == 2)
        #expect(response.context.attempt == 2)
    }

    @Test func interceptorErrorsAreWrappedOnceWithTheInterceptorsName() async throws {
        let failing = ClosureInterceptor(name: "Signer") { _, _, _ in throw BoomError() }
        let client = Client(
            transport: StubTransport.status(.ok),
            interceptors: [
                ClosureInterceptor { request, _, next in try await next(request) },
                failing
            ])
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(try Request(url: "http://example.test/"))
        }
        #expect(error?.kind == .transport)
        #expect(error?.interceptorName == "Signer")
        #expect(error?.underlyingError is BoomError)
        #expect(error?.request?.path == "/")
    }

    @Test func switchyardErrorsFromTheTransportPassThroughUnchanged() async throws {
        let client = Client(
            transport: StubTransport.failing(.connectionFailed("refused")),
            interceptors: [
                ClosureInterceptor { request, _, next in try await next(request) }
            ])
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(try Request(url: "http://example.test/"))
        }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.message == "refused")
        #expect(error?.interceptorName == nil)
    }

    @Test func contextStorageIsTypedAndSharedAlongTheChain() async throws {
        enum TraceKey: ExchangeContextKey { typealias Value = String }
        let writer = ClosureInterceptor { request, context, next in
            context[TraceKey.self] = "trace-1"
            return try await next(request)
        }
        let stub = StubTransport { _, context in
            Response(status: .ok, body: Array((context[TraceKey.self] ?? "none").utf8))
        }
        let response = try await Client(transport: stub, interceptors: [writer])
            .send(try Request(url: "http://example.test/"))
        #expect(response.text == "trace-1")
    }

    @Test func aLinkCanSendTheRestOfTheChainAsAnExchangeOfItsOwn() async throws {
        enum TraceKey: ExchangeContextKey { typealias Value = String }
        let seen = Lock<[ExchangeContext]>([])
        let stub = StubTransport { _, context in
            seen.withLock { $0.append(context) }
            return Response(status: .ok)
        }
        let bus = EventBus()
        let spawning = ClosureInterceptor { request, context, next in
            context[TraceKey.self] = "caller"
            context.attempt = 3
            var options = request.options
            options.deadline = nil
            options.timeout = .seconds(90)
            _ = try await next.startingExchange(options: options)(request)
            return try await next(request)
        }
        var request = try Request(url: "http://example.test/")
        request.options.timeout = .seconds(5)
        let response = try await Client(transport: stub, interceptors: [spawning], events: bus).send(request)

        let (own, caller) = try #require(seen.withLock { $0.count == 2 ? ($0[0], $0[1]) : nil })
        #expect(caller.id == response.context.id)
        #expect(own.id != caller.id)
        #expect(own.attempt == 1 && caller.attempt == 3)
        #expect(own[TraceKey.self] == nil && caller[TraceKey.self] == "caller")
        #expect(own.eventBus === bus)
        let ownDeadline = try #require(own.deadline)
        #expect(ownDeadline >= own.startedAt.advanced(by: .seconds(90)))
        #expect(ownDeadline > (try #require(caller.deadline)))
    }

    @Test func exchangeIDsAreUnique() {
        let first = ExchangeContext()
        let second = ExchangeContext()
        #expect(first.id != second.id)
    }
}
