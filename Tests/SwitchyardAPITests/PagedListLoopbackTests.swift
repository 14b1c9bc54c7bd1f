import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

@testable import SwitchyardAPI

/// Paged lists over real HTTP: ``JSONPageSource`` and ``PageLoader`` against the loopback server's
/// `/pages/{key}` lists, whose server inserts items at the top between page loads.
@Suite(.timeLimit(.minutes(3))) struct PagedListLoopbackTests {
    typealias Backend = TransportKind

    /// The layout of the `/pages` lists for a `style` query value.
    static func layout(_ style: String) -> JSONPageLayout {
        switch style {
        case "flag": JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")
        case "total": JSONPageLayout(items: "data.items", id: "id", total: "data.total", sizeParameter: "size")
        case "cursor":
            JSONPageLayout(
                items: "data.items", id: "id", nextCursor: "data.next_cursor",
                pageParameter: .cursor(name: "cursor"), sizeParameter: "size")
        default: JSONPageLayout(items: "data.items", id: "id", sizeParameter: "size")
        }
    }

    static func loader(_ client: Client, _ url: String, style: String) -> PageLoader<JSONPageSource, JSONValue> {
        PageLoader(source: JSONPageSource(client: client, url: url, layout: layout(style)), pageSize: 10)
    }

    /// Loads pages until the list says there is no next one (at most 50 loads).
    static func walk(_ loader: PageLoader<JSONPageSource, JSONValue>) async -> [PageLoadResult] {
        var results = [await loader.loadFirst()]
        while await loader.hasNext, results.count < 50 { results.append(await loader.loadNext()) }
        return results
    }

    static func ids(_ items: [JSONValue]) -> [Int64] {
        items.compactMap { if case .integer(let id) = $0[path: "id"] { id } else { nil } }
    }

    @Test(arguments: Backend.allCases, ["flag", "total", "short"])
    func aListThatGrowsBetweenPagesIsReadExactlyOnce(_ backend: Backend, style: String) async throws {
        try await backend.withClient { client, server in
            let url = server.url("/pages/grow?style=\(style)&total=95&insert=2")
            let loader = Self.loader(client, url, style: style)
            let results = await Self.walk(loader)
            #expect(results.count == 12)
            #expect(results.map(\.outcome.name) == Array(repeating: "succeeded", count: 12))
            #expect(results.map(\.duplicateCount) == [0] + Array(repeating: 2, count: 11))
            #expect(results.last?.itemCount == 7)
            #expect(Self.ids(await loader.items) == Array(1...95))
            #expect(server.pageRequests(key: "grow") == Array(1...12))
        }
    }

    @Test func aCursorListIsReadExactlyOnce() async throws {
        try await withCurlClient { client, server in
            let loader = Self.loader(client, server.url("/pages/cursor?style=cursor&total=95&insert=2"), style: "cursor")
            let results = await Self.walk(loader)
            #expect(results.count == 12)
            #expect(results.dropFirst().allSatisfy { $0.duplicateCount == 2 })
            #expect(Self.ids(await loader.items) == Array(1...95))
        }
    }

    @Test func theServerDecidesThePageSize() async throws {
        try await withCurlClient { client, server in
            var layout = Self.layout("short")
            layout.pageSize = "data.page_size"
            let source = JSONPageSource(
                client: client, url: server.url("/pages/sized?style=short&server_size=25"),
                layout: layout)
            let loader = PageLoader(source: source)
            let results = await Self.walk(loader)
            #expect(results.map(\.itemCount) == [25, 25, 25, 20])
            #expect(Self.ids(await loader.items) == Array(1...95))
        }
    }

    @Test func aFailingPageIsRolledBackThenLoaded() async throws {
        try await withCurlClient { client, server in
            let loader = Self.loader(client, server.url("/pages/fail?total=95&fail=3"), style: "flag")
            await loader.loadFirst()
            await loader.loadNext()
            let failed = await loader.loadNext()
            #expect(failed.page == 3)
            #expect(failed.error?.kind == .httpStatus)
            #expect(failed.error?.response?.status.code == 500)
            #expect(await loader.state.items.count == 20)
            let retried = await loader.loadNext()
            #expect(retried.page == 3)
            #expect(retried.outcome.name == "succeeded")
            #expect(Self.ids(await loader.items) == Array(1...30))
            #expect(server.pageRequests(key: "fail") == [1, 2, 3, 3])
        }
    }

    @Test func concurrentNextPageCallsSendOneRequest() async throws {
        try await withCurlClient { client, server in
            let loader = Self.loader(client, server.url("/pages/twice?hold=2"), style: "flag")
            await loader.loadFirst()
            // The server holds page 2, so the load stays in flight until cancelled.
            let calls = (0..<4).map { _ in Task { await loader.loadNext() } }
            await eventually { server.pageRequests(key: "twice") == [1, 2] }
            while await loader.joinedCalls < 3 { try await Task.sleep(for: .milliseconds(2)) }
            await loader.cancel()
            var outcomes: [String] = []
            for call in calls { outcomes.append(await call.value.outcome.name) }
            #expect(outcomes == Array(repeating: "cancelled", count: 4))
            #expect(server.pageRequests(key: "twice") == [1, 2])
            let again = await loader.loadNext()
            #expect(again.page == 2)
            #expect(again.outcome.name == "succeeded")
            #expect(server.pageRequests(key: "twice") == [1, 2, 2])
        }
    }

    @Test func refreshDuringANextPageStopsItsExchangeAndReplacesTheList() async throws {
        try await withCurlClient { client, server in
            let loader = Self.loader(client, server.url("/pages/refresh?insert=2&hold=2"), style: "flag")
            await loader.loadFirst()
            async let next = loader.loadNext()
            await eventually { server.pageRequests(key: "refresh") == [1, 2] }
            let refreshed = await loader.refresh()
            #expect(refreshed.kind == .refresh)
            #expect(refreshed.outcome.name == "succeeded")
            #expect(await next.outcome.name == "cancelled")
            // The held page's exchange was stopped on the wire.
            #expect(await server.waitForDisconnect(tag: "pages-refresh-held", timeout: .seconds(60)))
            #expect(Self.ids(await loader.items) == Array(1...10))
            let again = await loader.loadNext()
            #expect(again.page == 2)
            #expect(again.duplicateCount == 2)
            #expect(Self.ids(await loader.items) == Array(1...18))
        }
    }

    @Test(arguments: ["/pages/nothing/empty", "/pages/nothing/no-content", "/pages/nothing?total=0"])
    func anEmptyListIsNoData(path: String) async throws {
        try await withCurlClient { client, server in
            let loader = Self.loader(client, server.url(path), style: "flag")
            let result = await loader.loadFirst()
            #expect(result.outcome.name == "noData")
            #expect(await loader.state.name == "noData")
            #expect(await loader.hasNext == false)
        }
    }

    @Test func aWrongItemsPathIsADecodingErrorNamingThePath() async throws {
        try await withCurlClient { client, server in
            var layout = Self.layout("flag")
            layout.items = "data.list"
            let source = JSONPageSource(client: client, url: server.url("/pages/wrong"), layout: layout)
            let result = await PageLoader(source: source, pageSize: 10).loadFirst()
            let error = try #require(result.error)
            #expect(error.kind == .decoding)
            #expect(error.message.contains(#"data.list: no such member "list" in data"#))
        }
    }

    @Test func anItemWithoutTheIDPathIsADecodingError() async throws {
        try await withCurlClient { client, server in
            var layout = Self.layout("flag")
            layout.id = "uuid"
            let source = JSONPageSource(client: client, url: server.url("/pages/noid"), layout: layout)
            let error = try #require(await PageLoader(source: source, pageSize: 10).loadFirst().error)
            #expect(error.kind == .decoding)
            #expect(error.message.contains(#"uuid: no such member "uuid""#))
        }
    }

    @Test func pageParametersJoinTheURLsQuery() {
        let source = JSONPageSource(
            client: Client(transport: CurlTransport(), interceptors: []), url: "http://h/list?q=a%20b&page=9#top",
            layout: Self.layout("flag"))
        #expect(source.pageURL(for: PageRequest(index: 2, offset: 10, size: 10)) == "http://h/list?q=a%20b&page=2&size=10#top")
        var cursor = Self.layout("cursor")
        cursor.sizeParameter = nil
        let cursorSource = JSONPageSource(
            client: Client(transport: CurlTransport(), interceptors: []), url: "http://h/list", layout: cursor)
        #expect(cursorSource.pageURL(for: PageRequest(index: 1, offset: 0)) == "http://h/list")
        #expect(cursorSource.pageURL(for: PageRequest(index: 2, offset: 10, cursor: "a/b=")) == "http://h/list?cursor=a%2Fb%3D")
    }
}

extension TransportKind {
    /// Runs `body` with a client over this transport and a fresh server, then shuts both down.
    func withClient(_ body: (Client, LoopbackServer) async throws -> Void) async throws {
        let server = try await LoopbackServer.start()
        let transport = make()
        var failure: (any Error)?
        do {
            try await body(Client(transport: transport, interceptors: []), server)
        } catch {
            failure = error
        }
        try? await transport.shutdown()
        try? await server.shutdown()
        if let failure { throw failure }
    }
}
