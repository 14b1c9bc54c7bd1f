import HTTPTypes
import Switchyard
import SwitchyardCache
import Testing

/// Invalidation by unsafe methods (RFC 9111 §4.4), over an in-memory transport.
@Suite struct CacheInvalidationTests {
    /// Answers GETs with a counted, storable body and POSTs with 201 and `Location: /a`.
    final class CountingTransport: Transport {
        let gets = Lock(0)

        func send(_ request: Request, context: ExchangeContext) async throws -> Response {
            if request.head.method == .post {
                return Response(status: .created, headerFields: [.location: "/a"])
            }
            let count = gets.withLock { count in
                count += 1
                return count
            }
            return Response(status: .ok, headerFields: [.cacheControl: "max-age=600"], body: Array("get \(count)".utf8))
        }
    }

    @Test func aSuccessfulPostInvalidatesTheLocationItNames() async throws {
        let transport = CountingTransport()
        let client = Client(transport: transport, interceptors: [CacheInterceptor(cache: HTTPCache())])
        #expect(try await client.send(try Request(url: "http://api.test/a")).text == "get 1")
        #expect(try await client.send(try Request(url: "http://api.test/a")).text == "get 1")
        _ = try await client.send(try Request(method: .post, url: "http://api.test/b", body: HTTPBody("x")))
        #expect(try await client.send(try Request(url: "http://api.test/a")).text == "get 2")
    }

    @Test func anotherOriginsLocationIsNotInvalidated() async throws {
        let client = Client(transport: CountingTransport(), interceptors: [CacheInterceptor(cache: HTTPCache())])
        _ = try await client.send(try Request(url: "http://other.test/a"))
        _ = try await client.send(try Request(method: .post, url: "http://api.test/b", body: HTTPBody("x")))
        #expect(try await client.send(try Request(url: "http://other.test/a")).context.provenance.source == .cache)
    }
}
