import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTraffic

/// The traffic-control part of `yard demo`: identical requests coalesced, a per-host limit whose
/// queue follows priorities, a screen's tag cancelled mid-flight, and a circuit breaker opening and
/// closing. Each part uses a client of its
/// own with just that facility on.
struct DemoTrafficTour {
    let server: LoopbackServer
    let transportName: String
    let transport: any Transport

    func run() async throws {
        try await coalescing()

        let limiter = ConcurrencyLimiter(maxExchangesPerHost: 2)
        var limited = ClientConfiguration(events: nil)
        limited.plugins.append(.concurrencyLimit(limiter))
        try await priorities(try Client(transport: transport, configuration: limited), limiter: limiter)

        let tracker = ExchangeTracker()
        var tracked = ClientConfiguration(events: nil)
        tracked.plugins.append(.tracking(tracker))
        try await tagCancellation(try Client(transport: transport, configuration: tracked), tracker: tracker)

        try await circuitBreaker()
    }

    /// A failing endpoint opens the host's breaker after three failures; requests then fail fast
    /// without reaching the server; once the endpoint recovers and the cool-down ends, a probe goes
    /// through and the breaker closes.
    private func circuitBreaker() async throws {
        let bus = EventBus()
        let transitions = bus.subscribe()
        var configuration = ClientConfiguration(events: bus, retry: nil)
        let breaker = CircuitBreaker(policy: .consecutiveFailures(3, openDuration: .milliseconds(200)))
        configuration.plugins.append(.circuitBreaker(breaker))
        let client = try Client(transport: transport, configuration: configuration)
        let key = "demo-breaker-\(transportName)"
        let request = try Request(url: server.url("/cache/\(key)"))
        server.setCacheMode(.status(503), key: key)
        var statuses: [String] = []
        for _ in 0..<3 { statuses.append(await outcome(client, request)) }
        let host = request.head.authority ?? ""
        print("   three 503s: \(statuses.joined(separator: ", ")); breaker for \(host): \(breaker.state(forHost: host))")
        let hitsBefore = server.requestCount(path: "/cache/\(key)")
        let failFast = await outcome(client, request)
        print("   the next request: \(failFast), the server saw \(server.requestCount(path: "/cache/\(key)") - hitsBefore) new request(s)")
        server.setCacheMode(.ok, key: key)
        var probe = failFast
        let end = ContinuousClock.now + .seconds(60)
        while probe == "circuitOpen", ContinuousClock.now < end {  // until the cool-down lets a probe through
            try await Task.sleep(for: .milliseconds(20))
            probe = await outcome(client, request)
        }
        print("   after the endpoint recovered and the cool-down ended, a probe: \(probe); breaker: \(breaker.state(forHost: host))")
        var events: [String] = []  // both were published before the calls that caused them returned
        for await event in transitions where ["circuitOpened", "circuitClosed"].contains(event.kind.name) {
            events.append(event.kind.name)
            if events.count == 2 { break }
        }
        print("   events published: \(events.joined(separator: ", "))")
    }

    /// `200`, `503`, or the error kind of one call.
    private func outcome(_ client: Client, _ request: Request) async -> String {
        do {
            return String(try await client.send(request).head.status.code)
        } catch {
            return error.kind.rawValue
        }
    }

    /// 100 identical GETs while the first is in flight: one server hit, 100 full bodies.
    private func coalescing() async throws {
        let bus = EventBus()
        let joined = bus.subscribe(bufferSize: 256)
        var configuration = ClientConfiguration(events: bus)
        configuration.plugins.append(.coalescing(CoalescingPolicy()))
        let client = try Client(transport: transport, configuration: configuration)
        let key = "demo-coalesce-\(transportName)"
        let path = "/hold/\(key)/65536"
        let request = try Request(url: server.url(path))
        let sizes = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<100 { group.addTask { (try? await client.send(request).body.count) ?? -1 } }
            var followers = 0
            for await event in joined where event.kind.name == "coalesced" {
                followers += 1
                if followers == 99 { break }
            }
            server.release(key: key)  // the server answers only now: every caller has joined
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        print(
            "   100 identical GETs with coalescing: the server was hit \(server.requestCount(path: path)) time(s);"
                + " \(sizes.filter { $0 == 65536 }.count) callers read the whole 64 KiB body")
    }

    /// Two slots per host; six more requests queue (background first, user-initiated last) and the
    /// server, answering one at a time, sees them in priority order.
    private func priorities(_ client: Client, limiter: ConcurrencyLimiter) async throws {
        let key = "demo-limit-\(transportName)"
        var tasks: [Task<Void, Never>] = []
        func launch(_ id: String, _ priority: RequestPriority) throws {
            var request = try Request(url: server.url("/gate/\(key)?id=\(id)"))
            request.options.priority = priority
            tasks.append(Task { _ = try? await client.send(request) })
        }
        try launch("first-a", .utility)
        try launch("first-b", .utility)
        await until { server.gate(key: key).held == 2 }
        let queued: [(String, RequestPriority)] = [
            ("background-1", .background), ("background-2", .background), ("utility-1", .utility),
            ("utility-2", .utility), ("userInitiated-1", .userInitiated), ("userInitiated-2", .userInitiated)
        ]
        for (index, (id, priority)) in queued.enumerated() {
            try launch(id, priority)
            await until { limiter.queued == index + 1 }
        }
        print("   limit 2 per host: 2 on the wire, \(limiter.queued) queued in the order background, utility, userInitiated")
        for released in 1...queued.count {
            server.release(key: key, count: 1)
            await until { server.gate(key: key).arrivals.count == 2 + released }
        }
        server.release(key: key)
        for task in tasks { await task.value }
        let figures = server.gate(key: key)
        print("   the server saw them in this order: \(figures.arrivals.dropFirst(2).joined(separator: ", "))")
        print("   most requests in progress at the server at once: \(figures.maxConcurrent)")
    }

    /// A screen's three requests (on the wire, held by the server) cancelled by their tag; another
    /// request is left alone.
    private func tagCancellation(_ client: Client, tracker: ExchangeTracker) async throws {
        let key = "demo-tag-\(transportName)"
        var screen: [Task<Result<BufferedResponse, SwitchyardError>, Never>] = []
        for index in 0..<3 {
            var request = try Request(url: server.url("/gate/\(key)?id=\(index)&tag=\(key)-\(index)"))
            request.options.tags = ["profile-screen"]
            screen.append(Task { do { return .success(try await client.send(request)) } catch { return .failure(.wrapping(error)) } })
        }
        let other = Task { try? await client.send(try Request(url: server.url("/gate/\(key)?id=other"))) }
        await until { server.gate(key: key).held == 4 }
        print("   in flight: \(tracker.activity()), of which the profile screen's: \(tracker.activity(tagged: "profile-screen").inFlight)")
        let cancelled = tracker.cancel(tagged: "profile-screen")
        var kinds: [String] = []
        for task in screen {
            if case .failure(let error) = await task.value { kinds.append(error.kind.rawValue) }
        }
        var closed = true
        for index in 0..<3 { closed = await server.waitForDisconnect(tag: "\(key)-\(index)", timeout: .seconds(30)) && closed }
        server.release(key: key)
        let untouched = await other.value
        print(
            "   cancel(tagged: \"profile-screen\") → \(cancelled) exchanges ended: \(kinds.joined(separator: ", "));"
                + " server saw their connections close: \(closed ? "yes" : "no");"
                + " the other request: \(untouched.map { "\($0.head.status.code)" } ?? "failed")")
    }

    /// Waits until `condition` holds (polling; the demo's server answers at once).
    private func until(_ condition: () -> Bool) async {
        let end = ContinuousClock.now + .seconds(60)
        while !condition(), ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(2)) }
    }
}
