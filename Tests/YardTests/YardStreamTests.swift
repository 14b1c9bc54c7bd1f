import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `yard stream`: one JSON object per event, reconnecting as a browser does.
@Suite(.timeLimit(.minutes(2))) struct YardStreamTests {
    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func eventsPrintInOrderAcrossACutConnectionUntilThe204() async throws {
        try await withLoopbackServer { server in
            let run = try await runYard(["stream", server.url("/events/y?total=4&per_connection=2&cut=1&retry=1&type=tick")])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                lines(run.stdout) == (1...4).map { #"{"event":"tick","data":"event \#($0)","id":"\#($0)"}"# })
            #expect(server.eventStreamRequests(key: "y") == [nil, "2", "4"])
        }
    }

    @Test func maxEventsStopsEarlyAndAnEventWithoutIDPrintsNull() async throws {
        try await withLoopbackServer { server in
            let run = try await runYard(["stream", "--max-events", "2", server.url("/events/m?total=100")])
            #expect(run.status == 0)
            #expect(lines(run.stdout).count == 2)
        }
    }

    @Test(arguments: ["curl", "urlsession", "ahc"])
    func anotherContentTypeExitsOneWithTheTypedError(_ transport: String) async throws {
        try await withLoopbackServer { server in
            let run = try await runYard(["stream", "--transport", transport, server.url("/events/t?content_type=application/json")])
            #expect(run.status == 1)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("eventStreamRejected"))
        }
    }

    @Test func aFailingStatusExitsOne() async throws {
        try await withLoopbackServer { server in
            let run = try await runYard(["stream", server.url("/status/503")])
            #expect(run.status == 1)
            #expect(run.stderr.contains("eventStreamRejected") && run.stderr.contains("503"), "\(run.stderr)")
            #expect(server.requestCount(path: "/status/503") == 1, "not retried")
        }
    }

    /// A `500` answered as an event stream (closed, or left open by the server) prints no event and
    /// exits 1 naming the status, on every transport, without reconnecting.
    @Test(arguments: ["curl", "urlsession", "ahc"], ["", "&open=1"])
    func anErrorAnsweredAsAnEventStreamExitsOneNamingTheStatus(_ transport: String, _ open: String) async throws {
        try await withLoopbackServer { server in
            let run = try await runYard(["stream", "--transport", transport, server.url("/events/e?status=500&total=3\(open)")])
            #expect(run.status == 1, "\(run.stdout)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("error: eventStreamRejected: The server answered 500"), "\(run.stderr)")
            #expect(server.eventStreamRequests(key: "e").count == 1)
        }
    }

    @Test(arguments: ["curl", "urlsession", "ahc"])
    func jsonLinesOfAnErrorStatusExitOneNamingIt(_ transport: String) async throws {
        try await withLoopbackServer { server in
            let run = try await runYard(["stream", "--ndjson", "--transport", transport, server.url("/status/500")])
            #expect(run.status == 1)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("httpStatus") && run.stderr.contains("500"), "\(run.stderr)")
        }
    }

    @Test func jsonLinesPrintCompactAndABadLineNamesItsNumber() async throws {
        try await withLoopbackServer { server in
            let good = try await runYard(["stream", "--ndjson", server.url("/ndjson?count=3")])
            #expect(good.status == 0)
            #expect(lines(good.stdout) == [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#])
            let bad = try await runYard(["stream", "--ndjson", server.url("/ndjson?count=3&bad_line=2")])
            #expect(bad.status == 1)
            #expect(lines(bad.stdout) == [#"{"n":1}"#])
            #expect(bad.stderr.contains("Line 2"))
        }
    }
}
