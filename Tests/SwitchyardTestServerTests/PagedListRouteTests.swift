import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite("LoopbackServer /pages routes")
struct PagedListRouteTests {
    @Test func pagesOverlapAfterInsertionsAndReportTheirStyle() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            let first = try connection.request("GET", "/pages/k?total=12&size=5&insert=2")
            #expect(first.status == 200)
            #expect(first.value("Content-Type") == "application/json")
            #expect(
                first.bodyText == #"""
                    {"data":{"items":[{"id":1,"title":"Item 1"},{"id":2,"title":"Item 2"},{"id":3,"title":"Item 3"},\#
                    {"id":4,"title":"Item 4"},{"id":5,"title":"Item 5"}],"page":1,"has_next":true}}
                    """#)
            let second = try connection.request("GET", "/pages/k?total=12&size=5&insert=2&page=2&style=total")
            #expect(
                second.bodyText == #"""
                    {"data":{"items":[{"id":4,"title":"Item 4"},{"id":5,"title":"Item 5"},{"id":6,"title":"Item 6"},\#
                    {"id":7,"title":"Item 7"},{"id":8,"title":"Item 8"}],"page":2,"total":14}}
                    """#)
            let top = try connection.request("GET", "/pages/k?total=12&size=3&style=cursor")
            #expect(
                top.bodyText == #"""
                    {"data":{"items":[{"id":14,"title":"New item 14"},{"id":13,"title":"New item 13"},\#
                    {"id":1,"title":"Item 1"}],"page":1,"next_cursor":"o3"}}
                    """#)
            let last = try connection.request("GET", "/pages/k?total=12&size=5&style=short&offset=10&server_size=7")
            #expect(last.bodyText.hasSuffix(#""page":2,"page_size":7}}"#))
            #expect(server.pageRequests(key: "k") == [1, 2, 1, 2])
            #expect(server.pageRequests(key: "other").isEmpty)
        }
    }

    @Test func aFailingPageFailsOnceAndAnEmptyListHasNoItems() async throws {
        try await withLoopbackServer { server in
            let connection = try RawConnection(port: server.port)
            #expect(try connection.request("GET", "/pages/f?fail=1").status == 500)
            #expect(try connection.request("GET", "/pages/f?fail=1").status == 200)
            let empty = try connection.request("GET", "/pages/f/empty")
            #expect(empty.bodyText == #"{"data":{"items":[],"has_next":false,"total":0}}"#)
            let none = try connection.request("GET", "/pages/f/no-content")
            #expect(none.status == 204)
            #expect(none.body.isEmpty)
            #expect(try connection.request("GET", "/pages/f?size=0").status == 400)
            #expect(try connection.request("GET", "/pages/f?style=sideways").status == 400)
            #expect(try connection.request("GET", "/pages/f?page=0").status == 400)
            #expect(server.pageRequests(key: "f") == [1, 1, 0, 0])
        }
    }

    @Test func aHeldPageIsNeverAnsweredAndItsConnectionIsTracked() async throws {
        try await withLoopbackServer { server in
            let held = try RawConnection(port: server.port)
            try held.send("GET /pages/h?hold=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            await eventually { server.pageRequests(key: "h") == [1] }
            #expect(!server.hasDisconnected(tag: "pages-h-held"))
            held.close()
            #expect(await server.waitForDisconnect(tag: "pages-h-held", timeout: .seconds(60)))
            let again = try RawConnection(port: server.port).request("GET", "/pages/h?hold=1")
            #expect(again.status == 200)
        }
    }
}
