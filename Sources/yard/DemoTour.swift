import Foundation
import HTTPTypes
import Switchyard
import SwitchyardObservability
import SwitchyardTestServer
import Synchronization

/// One pass of `yard demo` over one transport.
struct DemoTour {
    let server: LoopbackServer
    let transportName: String
    let transport: any Transport

    func run() async throws {
        print("\n══ Switchyard demo — transport: \(transportName), embedded server at \(server.baseURL) ══")
        let bus = EventBus()
        let printer = DemoEventPrinter(bus: bus)
        let stats = TimingStats()
        let client = try Client(transport: transport, configuration: DemoChain.configuration(events: bus, stats: stats))

        section(1, "The assembled chain (call links once per call, attempt links once per attempt)")
        for link in client.chain { print("   \(link)") }

        section(2, "A successful request, with its phase timings")
        await show(client, try Request(url: server.url("/small")))

        section(3, "A department header: added in the department's scope, not outside it")
        for path in ["/echo/catalog/items", "/echo/other"] {
            let echo = try await client.send(try Request(url: server.url(path)))
            let header = DemoChain.departmentHeader(in: echo.body)
            print("   \(path): \(DemoChain.departmentHeaderName) \(header.map { "= \($0)" } ?? "absent")")
        }

        section(4, "A flaky endpoint (two 503s) retried with jittered exponential back-off")
        printer.isPrinting = true
        await show(client, try Request(url: server.url("/flaky/demo-\(transportName)/2?retry-after=")))

        section(5, "Retry-After: 1 honoured (measured on the server's clock)")
        let key = "after-\(transportName)"
        await show(client, try Request(url: server.url("/flaky/\(key)/1?retry-after=1")))
        let arrivals = server.flakyArrivals(key: key)
        if arrivals.count == 2 {
            print("   the retry reached the server \(Self.format(arrivals[0].duration(to: arrivals[1]))) after the first attempt")
        }
        printer.isPrinting = false

        section(6, "A burst of 10 failures (nothing listens) coalesced into one pop-up event")
        printer.popUps.withLock { $0 = [] }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    var request = try? Request(url: "http://127.0.0.1:9/feed")
                    request?.options.retry = .disabled
                    if let request { _ = try? await client.send(request) }
                }
            }
        }
        let popUps = printer.popUps.withLock { $0 }
        let shown = popUps.filter(\.isWorthShowing)
        print(
            "   10 failure events, \(shown.count) pop-up worth showing: “\(shown.first?.message ?? "")”"
                + " (coalesced count reached \(popUps.map(\.coalescedCount).max() ?? 0))")

        section(7, "A request cancelled mid-flight (the server waits forever)")
        let stalled = Task { try await client.send(try Request(url: server.url("/stall?tag=demo-cancel-\(transportName)"))) }
        try await Task.sleep(for: .milliseconds(200))
        stalled.cancel()
        report(await stalled.result)
        let closed = await server.waitForDisconnect(tag: "demo-cancel-\(transportName)", timeout: .seconds(2))
        print("   server saw the connection close: \(closed ? "yes" : "no")")

        section(8, "A deadline that expires while the server is slow")
        var slow = try Request(url: server.url("/delay/5000"))
        slow.options.timeout = .milliseconds(300)
        await show(client, slow)

        section(9, "Malformed responses become typed errors, never short bodies")
        for path in ["/malformed/status-line", "/malformed/truncated-length", "/malformed/bad-chunk"] {
            await show(client, try Request(url: server.url(path)))
        }

        section(10, "A header value with CR/LF is refused before anything is sent")
        do {
            _ = try Request(url: server.url("/echo"), headers: ["X-Evil": "a\r\nInjected: 1"])
        } catch {
            print("   ✗ \(error.kind.rawValue): \(error.message)")
        }

        section(11, "API objects and lists (SwitchyardAPI)")
        printer.isPrinting = false
        try await DemoAPITour(server: server, transportName: transportName, client: client).run()

        section(12, "A download with progress, interrupted by the server and resumed; an upload paused and resumed")
        try await DemoTransferTour(server: server, transportName: transportName, client: client).run()
        try await DemoUploadTour(server: server, transportName: transportName, client: client).run()

        section(13, "Token refresh: many 401s, one refresh (SwitchyardAuth, registered on the running client)")
        try await DemoAuthTour(server: server, transportName: transportName, client: client).run()

        section(14, "A cached response served while the server is down (SwitchyardCache, stale-if-error)")
        try await DemoCacheTour(server: server, transportName: transportName, client: client).run()

        section(15, "Traffic control: coalescing, a per-host limit with priorities, a screen cancelled by tag, a circuit breaker")
        try await DemoTrafficTour(server: server, transportName: transportName, transport: transport).run()

        section(16, "Timing statistics per endpoint (call = whole call; ttfb of the last attempt; back-off waits; decoding)")
        var snapshot = stats.snapshot()
        for index in snapshot.endpoints.indices {
            snapshot.endpoints[index].phases.removeAll { !["call", "ttfb", "backoff", "decoding"].contains($0.name) }
        }
        for line in snapshot.table.split(separator: "\n") { print("   \(line)") }
    }

    private func section(_ number: Int, _ title: String) {
        print("\n\(number). \(title)")
    }

    private func show(_ client: Client, _ request: Request) async {
        do {
            report(.success(try await client.send(request)))
        } catch {
            report(.failure(error))
        }
    }

    private func report(_ result: Result<BufferedResponse, any Error>) {
        switch result {
        case .success(let response):
            let preview = response.text.prefix(40).trimmingCharacters(in: .whitespacesAndNewlines)
            print("   ✓ \(response.head.status.code) \(response.head.status.reasonPhrase), \(response.body.count) bytes “\(preview)”")
            print("   timings: " + Self.describe(response.timings))
        case .failure(let error):
            let error = SwitchyardError.wrapping(error)
            print("   ✗ \(error.kind.rawValue): \(error.message)")
        }
    }

    static func format(_ duration: Duration) -> String {
        String(format: "%.2f ms", duration.milliseconds)
    }

    private static func describe(_ timings: TransferTimings) -> String {
        let phases: [(String, Duration?)] = [
            ("dns", timings.dns), ("connect", timings.connect), ("tls", timings.tls),
            ("ttfb", timings.firstByte), ("total", timings.total)
        ]
        return phases.compactMap { name, value in value.map { "\(name) \(format($0))" } }.joined(separator: " · ")
    }
}
