import Foundation
import Testing

/// `yard demo` tours every transport and shows each part of the chain doing its job.
@Suite(.timeLimit(.minutes(2)))
struct YardDemoTests {
    @Test func theDemoShowsTheChainAtWorkOnEveryTransport() async throws {
        let run = try await runYard(["demo"])
        #expect(run.status == 0, "\(run.stderr)")
        let tours = run.stdout.components(separatedBy: "══ Switchyard demo — transport: ").dropFirst()
        #expect(tours.map { String($0.prefix { $0 != "," }) } == ["curl", "urlsession", "ahc"])
        for tour in tours {
            #expect(tour.contains("call     EventsInterceptor"))
            #expect(tour.contains("/echo/catalog/items: X-Department = catalog"))
            #expect(tour.contains("/echo/other: X-Department absent"))
            #expect(tour.contains("↻ retrying"))
            #expect(tour.contains("1 pop-up worth showing"))
            #expect(tour.contains(#"✓ ["a1", "c3"] kept"#))
            #expect(tour.contains("skipped item 1: data.items[1].id: expected a string"))
            #expect(tour.contains("✗ 403: Not enough credit — Your balance is 30, that costs 50."))
            #expect(tour.contains("server saw the connection close: yes"))
            #expect(tour.contains("⏸ upload paused after"))
            #expect(tour.contains("✓ resumed from the server's Upload-Offset: "))
            #expect(tour.contains("8388608 bytes, SHA-256 matches: yes"))
            #expect(tour.contains("✗ timeout"))
            #expect(tour.contains("/flaky/{key}/{failures}"))
            #expect(tour.contains("backoff"))
            #expect(
                tour.contains(
                    "the server saw them in this order: userInitiated-1, userInitiated-2, utility-1, utility-2, background-1, background-2")
            )
            #expect(
                tour.contains("100 identical GETs with coalescing: the server was hit 1 time(s); 100 callers read the whole 64 KiB body"))
            #expect(tour.contains("three 503s: 503, 503, 503; breaker for 127.0.0.1:"))
            #expect(tour.contains("the next request: circuitOpen, the server saw 0 new request(s)"))
            #expect(tour.contains("a probe: 200; breaker: closed"))
            #expect(tour.contains("events published: circuitOpened, circuitClosed"))
            #expect(tour.contains("most requests in progress at the server at once: 2"))
            #expect(
                tour.contains(
                    "3 exchanges ended: cancelled, cancelled, cancelled; server saw their connections close: yes; the other request: 200"))
        }
    }
}
