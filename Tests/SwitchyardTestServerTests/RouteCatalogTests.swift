import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The catalog `yard serve --help` prints names routes the server really has.
@Suite("LoopbackServer route catalog")
struct RouteCatalogTests {
    @Test func everyExamplePathIsARouteThatAnswers() async throws {
        try await withLoopbackServer { server in
            for route in LoopbackServer.routeCatalog {
                guard let example = route.example else { continue }
                let connection = try RawConnection(port: server.port)
                defer { connection.close() }
                try connection.send("GET \(example) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                let answer = String(decoding: try connection.readUntilClose(limit: 1 << 20), as: UTF8.self)
                let status = answer.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init)
                #expect(status != nil && status != "404" && status != "400", "\(route.pattern): \(example) answered \(status ?? "nothing")")
            }
        }
    }

    @Test func theCatalogTextListsEveryPatternOnItsOwnLine() {
        let lines = LoopbackServer.routeCatalogText.split(separator: "\n")
        #expect(lines.count == LoopbackServer.routeCatalog.count)
        for (line, route) in zip(lines, LoopbackServer.routeCatalog) {
            #expect(line.hasPrefix(route.pattern + " ") && line.hasSuffix(route.summary))
        }
    }
}
