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
            #expect(tour.contains("server saw the connection close: yes"))
            #expect(tour.contains("✗ timeout"))
            #expect(tour.contains("/flaky/{key}/{failures}"))
            #expect(tour.contains("backoff"))
        }
    }
}
