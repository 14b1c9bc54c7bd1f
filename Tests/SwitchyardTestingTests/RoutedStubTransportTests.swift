import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

private struct User: Codable, Equatable {
    let id: Int
    let name: String
}

/// Retries a request while the response is 503, up to `limit` attempts (a stand-in for a retry interceptor).
private func retryingOn503(limit: Int) -> ClosureInterceptor {
    ClosureInterceptor(name: "RetryOn503") { request, context, next in
        var response = try await next(request)
        var attempt = 1
        while response.head.status == .serviceUnavailable, attempt < limit {
            attempt += 1
            context.attempt = attempt
            response = try await next(request)
        }
        return response
    }
}

@Suite(.timeLimit(.minutes(2))) struct RoutedStubTransportTests {
    // MARK: - Matching

    @Test func exactWildcardAndRestRoutesAnswerTheirRequests() async throws {
        let api = RoutedStubTransport()
        let list = api.on(.get, "/users", reply: .text("list"))
        let one = api.on(.get, "/users/*", reply: .text("one"))
        let files = api.on(.get, "/files/**", reply: .text("file"))
        let client = Client(transport: api, interceptors: [])

        #expect(try await client.send(Request(url: "https://api.test/users?page=2")).text == "list")
        #expect(try await client.send(Request(url: "https://api.test/users/42")).text == "one")
        #expect(try await client.send(Request(url: "https://api.test/files/a/b/c.txt")).text == "file")
        #expect(try await client.send(Request(url: "https://api.test/files")).text == "file")
        #expect((list.callCount, one.callCount, files.callCount) == (1, 1, 2))
        #expect(api.callCount == 4)
    }

    @Test func methodRestrictsARouteAndAnyMethodMatchesAll() async throws {
        let api = RoutedStubTransport()
        let get = api.on(.get, "/users", reply: .text("got"))
        let post = api.on(.post, "/users", reply: .status(.created))
        let any = api.on("/health", reply: .status(.noContent))
        let client = Client(transport: api, interceptors: [])

        #expect(try await client.send(Request(url: "https://api.test/users")).head.status == .ok)
        #expect(try await client.send(Request(method: .post, url: "https://api.test/users")).head.status == .created)
        let delete = try await client.send(Request(method: .delete, url: "https://api.test/health"))
        #expect(delete.head.status == .noContent)
        #expect(try await client.send(Request(method: .put, url: "https://api.test/health")).head.status == .noContent)
        let error = await failure(of: client, try Request(method: .delete, url: "https://api.test/users"))
        #expect(error?.kind == .invalidRequest)
        #expect((get.callCount, post.callCount, any.callCount) == (1, 1, 2))
        #expect(get.requests.first?.head.method == .get)
    }

    @Test func firstMatchingRouteWinsInTheOrderAdded() async throws {
        let specific = StubRoute(.get, "/users/me", reply: .text("me"))
        let general = StubRoute(.get, "/users/*", reply: .text("someone"))
        let client = Client(transport: RoutedStubTransport(routes: [specific, general]), interceptors: [])
        #expect(try await client.send(Request(url: "https://api.test/users/me")).text == "me")
        #expect(try await client.send(Request(url: "https://api.test/users/7")).text == "someone")
    }

    // MARK: - Replies

    @Test func cannedRepliesCarryStatusHeadersAndBody() async throws {
        let api = RoutedStubTransport()
        api.on(.get, "/users/42", reply: try .json(User(id: 42, name: "Ada"), headers: [.xTrace: "t1"]))
        api.on(.get, "/avatar", reply: .bytes(binaryBytes, headers: [.contentType: "image/png"]))
        api.on(.get, "/hello", reply: .text("hello", status: .accepted))
        let client = Client(transport: api, interceptors: [])

        let user = try await client.send(Request(url: "https://api.test/users/42"))
        #expect(try JSONDecoder().decode(User.self, from: Data(user.body)) == User(id: 42, name: "Ada"))
        #expect(user.head.headerFields[.contentType] == "application/json")
        #expect(user.head.headerFields[.xTrace] == "t1")
        let avatar = try await client.send(Request(url: "https://api.test/avatar"))
        #expect(avatar.body == binaryBytes)
        #expect(avatar.head.headerFields[.contentType] == "image/png")
        let hello = try await client.send(Request(url: "https://api.test/hello"))
        #expect(hello.head.status == .accepted)
        #expect(hello.head.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(hello.timings.total != nil)
    }

    @Test func headRequestsGetTheHeadWithoutABody() async throws {
        let api = RoutedStubTransport(routes: [StubRoute("/page", reply: .text("content"))])
        let response = try await Client(transport: api, interceptors: []).stream(Request(method: .head, url: "https://api.test/page"))
        var count = 0
        for try await chunk in response.body { count += chunk.count }
        #expect(count == 0)
        #expect(response.head.headerFields[.contentType] != nil)
    }

    @Test func errorRepliesThrowTheirKind() async throws {
        let api = RoutedStubTransport()
        api.on(.get, "/down", reply: .failure(.connectionFailed("stubbed: refused")))
        api.on(.get, "/slow", reply: .failure(kind: .timeout))
        let client = Client(transport: api, interceptors: [])
        let down = await failure(of: client, try Request(url: "https://api.test/down"))
        #expect(down?.kind == .connectionFailed)
        #expect(down?.message == "stubbed: refused")
        #expect(await failure(of: client, try Request(url: "https://api.test/slow"))?.kind == .timeout)
    }

    @Test func customRepliesSeeTheRequest() async throws {
        let api = RoutedStubTransport()
        api.on(
            .post, "/echo",
            reply: .custom { request, _ in
                let bytes = try await request.body?.collect(upTo: 1 << 20) ?? []
                return Response(status: .ok, body: bytes.reversed())
            })
        let response = try await Client(transport: api, interceptors: [])
            .send(Request(method: .post, url: "https://api.test/echo", body: HTTPBody("abc")))
        #expect(response.text == "cba")
    }

    @Test func aCannedBodyOverTheResponseLimitFailsAsTooLarge() async throws {
        let api = RoutedStubTransport(routes: [StubRoute("/big", reply: .bytes([UInt8](repeating: 1, count: 100)))])
        let request = try Request(url: "https://api.test/big", options: RequestOptions(maxResponseBytes: 10))
        #expect(await failure(of: Client(transport: api, interceptors: []), request)?.kind == .responseTooLarge)
    }

    // MARK: - Sequences and counts

    @Test func aSequenceAnswersInOrderThenRepeatsItsLastReply() async throws {
        let api = RoutedStubTransport()
        let route = api.on(.get, "/poll", replies: [.text("a"), .text("b"), .text("c")])
        let client = Client(transport: api, interceptors: [])
        var texts: [String] = []
        for _ in 0..<5 { texts.append(try await client.send(Request(url: "https://api.test/poll")).text) }
        #expect(texts == ["a", "b", "c", "c", "c"])
        #expect(route.callCount == 5)
    }

    @Test func twoServiceUnavailableRepliesThenSuccessDriveARetry() async throws {
        let api = RoutedStubTransport()
        let feed = api.on(
            .get, "/feed",
            replies: [
                .status(.serviceUnavailable), .status(.serviceUnavailable), .text("[]")
            ])
        let client = Client(transport: api, interceptors: [retryingOn503(limit: 5)])
        let response = try await client.send(Request(url: "https://api.test/feed"))
        #expect(response.head.status == .ok)
        #expect(response.text == "[]")
        #expect(feed.callCount == 3)
        #expect(response.context.attempt == 3)
    }

    @Test func callCountsAndRequestsAreKeptUnderConcurrentUse() async throws {
        let api = RoutedStubTransport()
        let a = api.on(.get, "/a", reply: .text("a"))
        let b = api.on(.get, "/b/*", reply: .text("b"))
        let client = Client(transport: api, interceptors: [])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    let path = index.isMultiple(of: 2) ? "/a" : "/b/\(index)"
                    _ = try await client.send(Request(url: "https://api.test\(path)"))
                }
            }
            try await group.waitForAll()
        }
        #expect(a.callCount == 50)
        #expect(b.callCount == 50)
        #expect(api.callCount == 100)
        #expect(api.requests.count == 100)
        #expect(Set(b.requests.compactMap(\.head.path)).count == 50)
    }

    // MARK: - Delays, cancellation and deadlines

    @Test func aDelayedReplyAnswersAfterItsDelay() async throws {
        let api = RoutedStubTransport(routes: [StubRoute("/slow", reply: .text("done").delayed(by: .milliseconds(20)))])
        #expect(try await Client(transport: api, interceptors: []).send(Request(url: "https://api.test/slow")).text == "done")
    }

    @Test func cancellingDuringADelayEndsAsCancelled() async throws {
        let api = RoutedStubTransport()
        let route = api.on(.get, "/hang", reply: .delay(.seconds(3600), then: .text("never")))
        let client = Client(transport: api, interceptors: [])
        let task = Task { try await client.send(Request(url: "https://api.test/hang")) }
        #expect(await eventually { route.callCount == 1 })
        task.cancel()
        let result = await task.result
        guard case .failure(let error as SwitchyardError) = result else {
            Issue.record("expected a SwitchyardError, got \(result)")
            return
        }
        #expect(error.kind == .cancelled)
    }

    @Test func aDelayPastTheDeadlineEndsAsTimeout() async throws {
        let api = RoutedStubTransport(routes: [StubRoute("/hang", reply: .text("never").delayed(by: .seconds(3600)))])
        let request = try Request(url: "https://api.test/hang", options: RequestOptions(timeout: .milliseconds(30)))
        let error = await failure(of: Client(transport: api, interceptors: []), request)
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("stub") == true)
    }

    // MARK: - Unmatched requests

    @Test func anUnmatchedRequestNamesItselfAndListsTheRoutes() async throws {
        let api = RoutedStubTransport()
        api.on(.get, "/users/*", reply: .status(.ok))
        api.on("/health", reply: .status(.ok))
        let request = try Request(method: .post, url: "https://api.test/orders?x=1")
        let error = await failure(of: Client(transport: api, interceptors: []), request)
        let found = try #require(error)
        #expect(found.kind == .invalidRequest)
        #expect(found.message.contains("POST /orders?x=1"))
        #expect(found.message.contains("GET /users/*"))
        #expect(found.message.contains("ANY /health"))
        #expect(api.unmatchedRequests.count == 1)
        #expect(api.callCount == 1)
    }

    @Test func anUnmatchedRequestGetsTheFallbackReplyWhenOneIsSet() async throws {
        let api = RoutedStubTransport(unmatched: .reply(.text("no such thing", status: .notFound)))
        let response = try await Client(transport: api, interceptors: []).send(Request(url: "https://api.test/missing"))
        #expect(response.head.status == .notFound)
        #expect(response.text == "no such thing")
        #expect(api.unmatchedRequests.first?.head.path == "/missing")
    }

    @Test func theClosureStubTransportStillWorks() async throws {
        let stub = StubTransport.status(.ok, body: "hello")
        #expect(try await Client(transport: stub, interceptors: []).send(Request(url: "https://api.test/")).text == "hello")
        #expect(stub.callCount == 1)
    }
}
