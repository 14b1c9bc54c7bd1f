import HTTPTypes
public import Switchyard
import SwitchyardTestServer
import Synchronization

/// A soak under faults: many requests through the default chain (`ClientConfiguration.init()`,
/// retries included) against the embedded server in its fault-injection mode, each checked — the
/// engine of `yard bench --soak` and of the soak tests.
///
/// A mix of `GET`s and `POST`s (without `Idempotency-Key`) to `/soak/{id}`, one id per logical
/// request (`m-get-{n}`, `m-post-{n}`; `w-…` for the warm-up), half of them buffered (`Client.send(_:)`) and half streamed (`Client.stream(_:)`).
/// Each call is watched: one that has not ended by its deadline plus the grace period counts as
/// hung (and is left behind, cancelled). When a call ends, the server's arrivals of its id are
/// taken: a `POST` read more than once is a duplicate. A `200` is compared byte for byte with the
/// body asked for and its digest; a mismatch is a corrupted body.
///
/// ```swift
/// let run = SoakRun(configuration: SoakConfiguration(requests: 5_000), transportName: "curl") { CurlTransport() }
/// let report = try await run.run()
/// print(report.table)
/// ```
public struct SoakRun: Sendable {
    /// What to run.
    public var configuration: SoakConfiguration
    /// The transport's name, for the report.
    public var transportName: String
    /// Makes a fresh transport (one for the warm-up, one for the measured run); the run shuts each down.
    public var makeTransport: @Sendable () -> any Transport
    /// Called now and then with the number of requests that ended so far (progress output).
    public var progress: (@Sendable (Int) -> Void)?

    /// Creates a run.
    /// - Parameters:
    ///   - configuration: What to run.
    ///   - transportName: The transport's name, for the report.
    ///   - makeTransport: Makes a fresh transport.
    public init(configuration: SoakConfiguration, transportName: String, makeTransport: @escaping @Sendable () -> any Transport) {
        self.configuration = configuration
        self.transportName = transportName
        self.makeTransport = makeTransport
    }

    /// Starts the server, warms up, runs the requests, shuts the client down and reports.
    /// - Returns: The report.
    /// - Throws: When the server cannot start or the client cannot be made.
    public func run() async throws -> SoakReport {
        let server = try await LoopbackServer.start(.init(threads: configuration.serverThreads, faults: configuration.faults))
        do {
            let report = try await run(against: server)
            try? await server.shutdown()
            return report
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    private func run(against server: LoopbackServer) async throws -> SoakReport {
        if configuration.warmupRequests > 0 {
            let transport = makeTransport()
            let client = try Client(transport: transport, configuration: configuration.client)
            let tally = Tally()
            await drive(client: client, server: server, prefix: "w", indices: 0..<configuration.warmupRequests, tally: tally)
            await Self.shutDown(transport)
        }
        let baseline = configuration.measuresProcess ? await Self.settledFigures() : nil
        let baselineDescriptors = configuration.measuresProcess ? SoakDescriptorCensus.now(serverPort: server.port) : nil
        let (tally, duration, endMemory) = try await measuredRun(against: server)

        var report = tally.report(transport: transportName, configuration: configuration)
        report.duration = duration
        // Arrivals after their call ended: the ids the calls took when they ended, seen again.
        for (id, count) in server.untakenSoakArrivals where id.hasPrefix("m-") {
            report.lateArrivals += count
            if id.hasPrefix("m-post-") {
                report.duplicatedPosts += 1
                report.samples.append("late arrival of POST \(id) (\(count) after its call ended)")
            }
        }
        report.injectedFaults = Dictionary(uniqueKeysWithValues: server.injectedFaults.map { ($0.key.rawValue, $0.value) })
        if let baseline, let endMemory {
            report.baseline = baseline
            report.baselineDescriptors = baselineDescriptors
            report.memory = endMemory
            // Connections close asynchronously on both sides (the server is in this process too): give them time.
            let waitUntil = ContinuousClock.now.advanced(by: .seconds(10))
            var after = SoakProcessFigures.now()
            while after.openFileDescriptors > baseline.openFileDescriptors || after.threads > baseline.threads,
                ContinuousClock.now < waitUntil
            {
                try? await Task.sleep(for: .milliseconds(100))
                after = SoakProcessFigures.now()
            }
            report.afterShutdown = after
            report.serverConnectionsAfterShutdown = server.openConnections
            report.descriptorsAfterShutdown = SoakDescriptorCensus.now(serverPort: server.port)
        }
        return report
    }

    /// The measured requests through a fresh transport, which is shut down and released before this
    /// returns (its descriptors and threads are then the ones that should be gone).
    private func measuredRun(against server: LoopbackServer) async throws -> (Tally, Duration, SoakReport.Memory?) {
        let transport = makeTransport()
        let client = try Client(transport: transport, configuration: configuration.client)
        let tally = Tally()
        let memory = configuration.measuresProcess ? MemorySamples() : nil
        let started = ContinuousClock.now
        // Memory is read between requests, with none in flight (the run pauses at 10 % and 50 %), so
        // the heap figures compare like with like: what stays allocated, not what is in flight.
        let count = configuration.requests
        var next = 0
        for (position, checkpoint) in [count / 10, count / 2].enumerated() where checkpoint > next {
            await drive(client: client, server: server, prefix: "m", indices: next..<checkpoint, tally: tally)
            memory?.record(start: position == 0)
            next = checkpoint
        }
        await drive(client: client, server: server, prefix: "m", indices: next..<count, tally: tally)
        let duration = started.duration(to: .now)
        let endMemory = memory?.finish()
        await Self.shutDown(transport)
        return (tally, duration, endMemory)
    }

    /// The process's figures once its descriptor count has stopped changing for a second (the warm-up
    /// transport's connections close asynchronously, on both sides), or after 10 s.
    private static func settledFigures() async -> SoakProcessFigures {
        let giveUp = ContinuousClock.now.advanced(by: .seconds(10))
        var figures = SoakProcessFigures.now()
        var stableSince = ContinuousClock.now
        while ContinuousClock.now < giveUp, stableSince.duration(to: .now) < .seconds(1) {
            try? await Task.sleep(for: .milliseconds(100))
            let next = SoakProcessFigures.now()
            if next.openFileDescriptors != figures.openFileDescriptors || next.threads != figures.threads { stableSince = .now }
            figures = next
        }
        return figures
    }

    /// Shuts `transport` down, giving up after 30 s (a transport that cannot shut down is reported by
    /// its descriptors and threads).
    private static func shutDown(_ transport: any Transport) async {
        _ = await Watch.run(limit: .seconds(30)) { try? await transport.shutdown() }
    }

    // MARK: - Driving

    /// Sends requests `indices` with ids `{prefix}-{index}`, `concurrency` at a time; returns once all ended.
    private func drive(client: Client, server: LoopbackServer, prefix: String, indices: Range<Int>, tally: Tally) async {
        let next = Counter()
        let watch = HangWatch()
        let sweeper = Task { await watch.sweep() }
        defer { sweeper.cancel() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, configuration.concurrency) {
                group.addTask {
                    while true {
                        let index = indices.lowerBound + next.take()
                        guard index < indices.upperBound else { return }
                        await one(index: index, prefix: prefix, client: client, server: server, tally: tally, watch: watch)
                        if let progress, index % 1000 == 999 { progress(tally.ended) }
                    }
                }
            }
        }
    }

    /// One logical request, watched for hanging, then checked.
    private func one(index: Int, prefix: String, client: Client, server: LoopbackServer, tally: Tally, watch: HangWatch) async {
        let isPost = Double((index &* 2_654_435_761) % 1000) < configuration.postShare * 1000
        let size = configuration.sizes.isEmpty ? 1024 : configuration.sizes[(index / 2) % configuration.sizes.count]
        let streamed = index % 2 == 1
        // The method is in the id, so a late arrival says what it was without a table of ids.
        let id = "\(prefix)-\(isPost ? "post" : "get")-\(index)"
        tally.note(isPost: isPost)
        let requestBody = isPost ? SoakBody.bytes(id: "request-\(id)", size: configuration.postBodySize) : []
        let url = server.url("/soak/\(id)?size=\(size)")
        let deadline = configuration.deadline
        let outcome = await watch.run(limit: deadline + configuration.grace) {
            await Self.exchange(client: client, url: url, isPost: isPost, body: requestBody, streamed: streamed, deadline: deadline)
        }
        let arrivals = server.takeSoakArrivals(id: id)
        guard let outcome else {
            tally.hung(id: id, isPost: isPost, streamed: streamed)
            return
        }
        if arrivals > 1 {
            if isPost { tally.duplicated(id: id, arrivals: arrivals) } else { tally.repeatedGet() }
        }
        switch outcome {
        case .failed(let kind, let message):
            tally.failed(kind: kind, message: message)
        case .response(let status, let head, let body):
            guard status == 200 else {
                tally.completed(status: status, verified: false)
                return
            }
            if let problem = Self.check(id: id, size: size, head: head, body: body, requestBody: isPost ? requestBody : nil) {
                tally.completed(status: status, verified: false)
                tally.corrupted("\(isPost ? "POST" : "GET") \(id) \(streamed ? "streamed" : "buffered"): \(problem)")
            } else {
                tally.completed(status: status, verified: true)
            }
        }
    }

    /// How a call ended.
    enum Outcome: Sendable {
        case response(status: Int, head: [String: String], body: [UInt8])
        case failed(kind: String, message: String)
    }

    private static let checkedFields = [SoakBody.digestHeader, SoakBody.requestDigestHeader]

    private static func exchange(
        client: Client, url: String, isPost: Bool, body: [UInt8], streamed: Bool,
        deadline: Duration
    ) async -> Outcome {
        do {
            var options = RequestOptions()
            options.timeout = deadline
            let request = try Request(method: isPost ? .post : .get, url: url, body: isPost ? HTTPBody(body) : nil, options: options)
            let head: HTTPResponse
            var bytes: [UInt8] = []
            if streamed {
                let response = try await client.stream(request)
                head = response.head
                for try await chunk in response.body { bytes += chunk }
            } else {
                let response = try await client.send(request)
                head = response.head
                bytes = response.body
            }
            var fields: [String: String] = [:]
            for name in checkedFields {
                if let field = HTTPField.Name(name), let value = head.headerFields[field] { fields[name] = value }
            }
            return .response(status: head.status.code, head: fields, body: bytes)
        } catch let error as SwitchyardError {
            return .failed(kind: error.kind.rawValue, message: error.description)
        } catch {
            return .failed(kind: "other", message: "\(type(of: error)): \(error)")
        }
    }

    /// What is wrong with a `200`, or `nil`.
    private static func check(id: String, size: Int, head: [String: String], body: [UInt8], requestBody: [UInt8]?) -> String? {
        let expected = SoakBody.bytes(id: id, size: size)
        if body != expected {
            let firstDifference = zip(body, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            return "body of \(body.count) bytes, expected \(size)"
                + (firstDifference.map { ", first difference at byte \($0)" } ?? "")
        }
        guard head[SoakBody.digestHeader] == SoakBody.digest(of: body) else {
            return "digest header \(head[SoakBody.digestHeader] ?? "missing") does not match the body"
        }
        if let requestBody, head[SoakBody.requestDigestHeader] != SoakBody.digest(of: requestBody) {
            return "the server read a request body with digest \(head[SoakBody.requestDigestHeader] ?? "missing"), not the one sent"
        }
        return nil
    }
}
