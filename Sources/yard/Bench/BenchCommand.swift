import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardJSON
import SwitchyardTestServer

/// `yard bench`: a matrix of transport × chain × concurrency × payload against the embedded server
/// (or `--url`), each cell warmed up and then measured; or `--scale`, many requests held in flight.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure transports and chains: requests/s, latency percentiles, CPU, memory, threads.",
        discussion: """
            Examples:
              yard bench --transport all --chain all --concurrency 1,16,64 --payload small,1m --chart bench.svg
              yard bench --url http://127.0.0.1:18080/small --concurrency 64 --requests 50000 --result-line
              yard bench --scale --in-flight 100,1000,10000 --transport all
              yard bench --soak --requests 100000 --concurrency 64 --transport curl --faults reset=0.01,stall=0.005
              yard bench events 'http://127.0.0.1:8080/events/a?total=200000' --events 200000 --transport ahc
              yard bench ws ws://127.0.0.1:8080/ws/echo --messages 20000 --size 16
            CPU and memory are the whole process's: with the embedded server they include the server.
            """,
        subcommands: [BenchEventsCommand.self, BenchWebSocketCommand.self]
    )

    @Option(help: "An external URL to measure instead of the embedded server (its path is the payload).")
    var url: String?

    @Option(help: "The transports, comma-separated: \(TransportChoice.names), or all.")
    var transport = Selection<TransportChoice>([.curl])

    @Option(
        help:
            "The chains, comma-separated: bare (the transport alone), standard (what Client(transport:) runs), default (every built-in observer on), or all."
    )
    var chain = Selection<BenchChain>([.bare])

    @Option(help: "Concurrency levels, comma-separated, e.g. 1,16,64 (default 1; --soak: one level, default 64).")
    var concurrency: CommaSeparated<PositiveCount>?

    @Option(help: "Payloads, comma-separated: small, 64k, 1m, or a path on the embedded server.")
    var payload = CommaSeparated<String>(["small"])

    @Option(help: "Measured requests per cell (default 10000; --soak: in all, default 100000).")
    var requests: Int?

    @Option(help: "Measure each cell for this many seconds instead of a fixed number of requests.")
    var duration: Double?

    @Option(name: .customLong("max-seconds"), help: "Upper bound on each cell's measured duration.")
    var maxSeconds = 10.0

    @Option(help: "Untimed requests per cell before measuring.")
    var warmup = 500

    @Option(help: "Extra pass-through interceptors in front of the chain (the cost of a hop).")
    var interceptors = 0

    @Flag(
        name: .customLong("task-per-request"),
        help: "Start a task per request instead of long-lived workers.")
    var taskPerRequest = false

    @Flag(
        name: .customLong("on-transport-executor"),
        help: "Run the load's tasks on the transport's own executor (Transport.taskExecutor: curl's loop thread), if it has one.")
    var onTransportExecutor = false

    @Flag(
        name: .customLong("wrap-client"),
        help: """
            ahc: wrap an HTTPClient configured as Benchmarks/Reference's AsyncHTTPClient client is (HTTP/1.1, \
            no read timeout, no decompression, a connection per task), as an app wraps the client it has, \
            instead of the transport's own client.
            """)
    var wrapClient = false

    @Flag(name: .customLong("result-line"), help: "Print only the RESULT line per cell (the format of Benchmarks/Reference's clients).")
    var resultLine = false

    @Flag(help: "Print one JSON object {\"results\": […]}.")
    var json = false

    @Option(help: "Also write the results as CSV to this path.")
    var csv: String?

    @Option(help: "Also write an SVG chart (throughput and latency by concurrency) to this path.")
    var chart: String?

    @Flag(help: "Scale mode: hold --in-flight requests at once against a slow endpoint.")
    var scale = false

    @Option(name: .customLong("in-flight"), help: "Scale mode: requests held in flight, comma-separated.")
    var inFlight = CommaSeparated<PositiveCount>([100, 1_000, 10_000].map(PositiveCount.init))

    @Option(
        name: .customLong("curl-busy-poll-us"),
        help: "curl: the event loop's busy-poll window in microseconds (CurlTransport.Configuration.busyPollDuration).")
    var curlBusyPollMicroseconds: Int?

    @Option(
        name: .customLong("curl-busy-poll-max-in-flight"),
        help: "curl: busy-poll only while at most this many transfers are in flight (busyPollMaxInFlight).")
    var curlBusyPollMaxInFlight: Int?

    @Option(name: .customLong("delay-ms"), help: "Scale mode: how long the slow endpoint waits.")
    var delayMilliseconds = 2_000

    @Flag(
        help:
            "Soak mode: --requests GETs and POSTs through the default chain against the embedded server injecting faults; exits 1 if any hung, was duplicated or corrupted."
    )
    var soak = false

    @Option(help: "Soak mode: the faults, \(FaultPlan.specSyntax) (default \(SoakCommandRun.defaultSpec)).")
    var faults: String?

    @Option(name: .customLong("fault-seed"), help: "Soak mode: the seed of the fault decisions.")
    var faultSeed: UInt64 = 1

    @Option(name: .customLong("deadline-seconds"), help: "Soak mode: each request's deadline.")
    var deadlineSeconds = 5.0

    @Option(
        name: .customLong("grace-seconds"),
        help: "Soak mode: how long past its deadline a request may take to end before it counts as hung.")
    var graceSeconds = 10.0

    func validate() throws {
        guard requests ?? 1 > 0, maxSeconds > 0, warmup >= 0, interceptors >= 0, delayMilliseconds >= 0 else {
            throw ValidationError("--requests and --max-seconds must be positive; --warmup, --interceptors and --delay-ms not negative.")
        }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds.") }
        for name in payload.values { _ = try Self.path(forPayload: name) }
        if let curlBusyPollMicroseconds, curlBusyPollMicroseconds < 0 { throw ValidationError("--curl-busy-poll-us must not be negative.") }
        if soak {
            _ = try SoakCommandRun.plan(faults, seed: faultSeed)
            guard deadlineSeconds > 0, graceSeconds > 0 else {
                throw ValidationError("--deadline-seconds and --grace-seconds must be positive.")
            }
            guard (concurrency?.values.count ?? 1) == 1 else { throw ValidationError("--soak runs one --concurrency level.") }
        }
        if let curlBusyPollMaxInFlight, curlBusyPollMaxInFlight < 0 {
            throw ValidationError("--curl-busy-poll-max-in-flight must not be negative.")
        }
    }

    func run() async throws {
        ProcessStats.raiseOpenFileLimit()
        if soak {
            var configuration = SoakConfiguration(
                requests: requests ?? 100_000, concurrency: concurrency?.values.first?.value ?? 64,
                faults: try SoakCommandRun.plan(faults, seed: faultSeed),
                deadline: .milliseconds(Int64(deadlineSeconds * 1_000)),
                grace: .milliseconds(Int64(graceSeconds * 1_000)))
            configuration.warmupRequests = min(warmup * 2, configuration.requests)
            try await SoakCommandRun(transports: transport.values, configuration: configuration, json: json).run()
            return
        }
        let server = url == nil ? try await LoopbackServer.start() : nil
        defer { if let server { Task { try? await server.shutdown() } } }
        if scale {
            try await ScaleRun(
                transports: transport.values, levels: inFlight.values.map(\.value), delayMilliseconds: delayMilliseconds,
                server: server, url: url, json: json
            ).run()
            return
        }
        var results: [BenchResult] = []
        let cells = try matrix(server: server)
        for (index, cell) in cells.enumerated() {
            progress(
                "[\(index + 1)/\(cells.count)] \(cell.transport.rawValue) \(cell.chain.rawValue) c=\(cell.concurrency) \(cell.payload)")
            let result = try await measure(cell)
            results.append(result)
            if resultLine { print(result.resultLine) }
            if let firstError = result.run.firstError, !resultLine {
                FileHandle.standardError.write(Data("\nfirst error: \(firstError)\n".utf8))
            }
        }
        progress(nil)
        if json {
            print(JSONValue.object(["results": .array(results.map(\.json))]).description)
        } else if !resultLine {
            print(BenchResult.table(results))
        }
        if let csv { try BenchResult.csv(results).write(toFile: csv, atomically: true, encoding: .utf8) }
        if let chart {
            let title = "yard bench — \(ProcessInfo.processInfo.hostName), \(Date().formatted(.iso8601))"
            try BenchChart.svg(results, title: title).write(toFile: chart, atomically: true, encoding: .utf8)
        }
    }

    // MARK: - The matrix

    struct Cell {
        let transport: TransportChoice
        let chain: BenchChain
        let concurrency: Int
        let payload: String
        let url: String
    }

    private func matrix(server: LoopbackServer?) throws -> [Cell] {
        let payloads: [(String, String)] =
            try url.map { [(Self.path(of: $0), $0)] }
            ?? payload.values.map { name in
                let path = try Self.path(forPayload: name)
                return (name, server?.url(path) ?? path)
            }
        var cells: [Cell] = []
        for transport in transport.values {
            for chain in chain.values {
                for (name, target) in payloads {
                    for level in concurrency?.values ?? [PositiveCount(1)] {
                        cells.append(Cell(transport: transport, chain: chain, concurrency: level.value, payload: name, url: target))
                    }
                }
            }
        }
        return cells
    }

    private func measure(_ cell: Cell) async throws -> BenchResult {
        let request = try Request(url: cell.url)
        let passThrough: [any Interceptor] = (0..<interceptors).map { _ in PassThroughInterceptor() }
        return try await withTransport(cell.transport) { transport in
            let client = try cell.chain.makeClient(transport, extraInterceptors: passThrough)
            // Bodies stream and are counted, never buffered: a 1 GiB payload measures the transport, not the heap.
            let operation: @Sendable () async throws -> Int = {
                var bytes = 0
                for try await chunk in try await client.stream(request).body { bytes += chunk.count }
                return bytes
            }
            let cap = Duration.milliseconds(Int64(maxSeconds * 1_000))
            let executor = onTransportExecutor ? transport.taskExecutor : nil
            if warmup > 0 {
                _ = await LoadLoop(
                    concurrency: cell.concurrency, total: warmup, maxDuration: cap,
                    taskPerRequest: taskPerRequest, executor: executor
                ).run(operation)
            }
            let total = duration == nil ? requests ?? 10_000 : Int.max
            let limit = duration.map { min(cap, .milliseconds(Int64($0 * 1_000))) } ?? cap
            let threads = ThreadSampler()
            let cpuBefore = ProcessStats.cpuTime
            let switchesBefore = ProcessStats.contextSwitches
            let run = await LoadLoop(
                concurrency: cell.concurrency, total: total, maxDuration: limit,
                taskPerRequest: taskPerRequest, executor: executor
            ).run(operation)
            let cpu = ProcessStats.cpuTime - cpuBefore
            let switches = ProcessStats.contextSwitches - switchesBefore
            return BenchResult(
                transport: cell.transport.rawValue, chain: cell.chain.rawValue, concurrency: cell.concurrency,
                payload: cell.payload, url: cell.url, run: run, cpu: cpu, contextSwitches: switches,
                peakResidentBytes: ProcessStats.peakResidentBytes, threads: threads.stop())
        }
    }

    // MARK: - Options

    /// A fresh transport of `choice`, with the curl event loop's tuning options applied.
    private func withTransport<Result>(
        _ choice: TransportChoice,
        _ body: (any Transport) async throws -> Result
    ) async throws -> Result {
        if choice == .ahc, wrapClient { return try await withWrappedClient(body) }
        guard choice == .curl, curlBusyPollMicroseconds != nil || curlBusyPollMaxInFlight != nil else {
            return try await choice.withTransport(body)
        }
        var configuration = CurlTransport.Configuration()
        if let curlBusyPollMicroseconds { configuration.busyPollDuration = .microseconds(curlBusyPollMicroseconds) }
        if let curlBusyPollMaxInFlight { configuration.busyPollMaxInFlight = curlBusyPollMaxInFlight }
        return try await body(CurlTransport(configuration: configuration))
    }

    /// An ``AsyncHTTPClientTransport`` wrapping a client of the bench's own, configured as the
    /// reference client that uses AsyncHTTPClient directly (`Benchmarks/Reference/Sources/ahc-load`),
    /// plus the one setting a wrapped client needs (redirects left to the chain); shut down afterwards.
    private func withWrappedClient<Result>(_ body: (any Transport) async throws -> Result) async throws -> Result {
        let inFlight = concurrency?.values.map(\.value).max() ?? 1
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, inFlight))
        configuration.httpVersion = .http1Only
        configuration.decompression = .disabled
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let transport = AsyncHTTPClientTransport(wrapping: client, contentDecoding: .none)
        do {
            let result = try await body(transport)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    static func path(forPayload name: String) throws -> String {
        switch name {
        case "small": return "/small"
        case "64k": return "/bytes/65536"
        case "1m": return "/bytes/1048576"
        case let path where path.hasPrefix("/"): return path
        default: throw ValidationError("--payload takes small, 64k, 1m or a path starting with /, not '\(name)'.")
        }
    }

    static func path(of url: String) -> String {
        URL(string: url)?.path.nilIfEmpty ?? "/"
    }

    private func progress(_ line: String?) {
        if let line { StatusLine.show(line) } else { StatusLine.clear() }
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}

/// Forwards to `next` unchanged: the unit of chain overhead.
struct PassThroughInterceptor: Interceptor {
    nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        try await next(request)
    }
}
