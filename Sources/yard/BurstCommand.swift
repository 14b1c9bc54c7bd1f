import ArgumentParser
import Crypto
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAuth
import SwitchyardCache
import SwitchyardJSON
import SwitchyardPostgres
import SwitchyardTraffic

/// `yard burst`: many identical GETs through one client with traffic control on, and a count of
/// what came back.
struct BurstCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "burst",
        abstract: "Send N identical GETs through one client and count the outcomes.",
        discussion: """
            Prints {"calls","ok","statuses","errors","distinct_bodies","elapsed_ms"}: ok counts calls \
            that received a response (whatever its status), statuses counts them by status, errors \
            counts failed calls by error kind, distinct_bodies is the number of different body \
            SHA-256 among 2xx responses. Exit status 0 when every call received a response, 1 otherwise.

            --token-url signs the GETs with a bearer token fetched with a POST to that URL (answered \
            {"access_token": "...", "expires_in": seconds}) and fetched again after a 401. With \
            --shared-state postgres://user@host:port/database (a password from PGPASSWORD), every \
            process started with the same URL shares the token (one refresh for the fleet), the \
            --rate-limit buckets (the fleet together sends at most R per second per host), the \
            --breaker-failures breakers (failures in a row across the fleet open a host for all) and \
            the --cache (a response stored by one process is served to all).
            """
    )

    @Argument(help: "The absolute http or https URL.")
    var url: String

    @Option(help: "How many GETs to send.")
    var count: Int

    @Option(help: "How many run at once (default: all of them).")
    var concurrency: Int?

    @Flag(help: "Coalesce identical requests in flight into one exchange.")
    var coalesce = false

    @Option(name: .customLong("max-per-host"), help: "At most K exchanges in flight per host; the rest queue.")
    var maxPerHost: Int?

    @Option(name: .customLong("breaker-failures"), help: "Open the host's circuit breaker after F consecutive failures.")
    var breakerFailures: Int?

    @Flag(help: "Cache responses (RFC 9111): in memory, or in the --shared-state database for the fleet.")
    var cache = false

    @Option(name: .customLong("rate-limit"), help: "At most R requests per second per host, in bursts of up to R.")
    var rateLimit: Double?

    @Option(help: "The transport: \(TransportChoice.names).")
    var transport: TransportChoice = .curl

    @Option(help: "Retry a failed attempt up to N times.")
    var retries = 0

    @Option(help: "Seconds each call may take.")
    var timeout: Double?

    @Flag(help: "Print one JSON object.")
    var json = false

    @Option(name: .customLong("token-url"), help: "Sign with a bearer token from a POST to this URL; fetch it again after a 401.")
    var tokenURL: String?

    @Option(
        name: .customLong("shared-state"),
        help: "postgres://user@host:port/database: the state shared by every process given the same URL.")
    var sharedState: String?

    @Option(
        name: .customLong("shared-state-timeout"),
        help: "Seconds an operation on the shared state (and a wait for another process's lock) may take (default 5).")
    var sharedStateTimeout: Double = 5

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be at least 1.") }
        if let concurrency, concurrency < 1 { throw ValidationError("--concurrency must be at least 1.") }
        if let maxPerHost, maxPerHost < 1 { throw ValidationError("--max-per-host must be at least 1.") }
        if let breakerFailures, breakerFailures < 1 { throw ValidationError("--breaker-failures must be at least 1.") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds.") }
        if retries < 0 { throw ValidationError("--retries must not be negative.") }
        if !(sharedStateTimeout > 0) { throw ValidationError("--shared-state-timeout must be a positive number of seconds.") }
        if let rateLimit, !(rateLimit > 0) { throw ValidationError("--rate-limit must be a positive number of requests per second.") }
        if sharedState != nil, tokenURL == nil, rateLimit == nil, breakerFailures == nil, !cache {
            throw ValidationError(
                "--shared-state shares the state of --token-url, --rate-limit, --breaker-failures or --cache: give one of them.")
        }
    }

    func run() async throws {
        var request: Request
        do {
            request = try Request(url: url)
        } catch {
            throw ValidationError("\(error)")
        }
        request.options.timeout = timeout.map { .milliseconds(Int64($0 * 1_000)) }
        let bound = Duration.milliseconds(Int64(sharedStateTimeout * 1_000))
        let shared = try sharedState.map { try PostgresSharedState(url: $0, operationTimeout: bound) }
        var configuration = makeConfiguration(shared: shared)
        if let tokenURL {
            let provider = BurstCredentials.provider(tokenURL: tokenURL, shared: shared, timeout: bound)
            guard let host = URLComponents(string: url)?.host, !host.isEmpty else { throw ValidationError("The URL has no host.") }
            let auth = AuthPlugin(scope: RequestScope(hosts: [host]), provider: provider)
            configuration.plugins.append(.bearerAuth(auth))
        }
        defer { if let shared { Task { await shared.shutdown() } } }
        let tally = try await transport.withTransport { [configuration] transport in
            let client = try Client(transport: transport, configuration: configuration)
            let started = ContinuousClock.now
            let results = await client.send(all: Array(repeating: request, count: count), maxConcurrency: concurrency ?? count)
            return BurstTally(results, elapsed: started.duration(to: .now))
        }
        if json {
            print(tally.json.description)
        } else {
            print(tally.summary)
        }
        if tally.ok < count { throw ExitCode(1) }
    }

    /// The chain the flags ask for; its cache, rate limit and breaker shared through `shared`, if given.
    func makeConfiguration(shared: PostgresSharedState? = nil) -> ClientConfiguration {
        var configuration = ClientConfiguration(
            events: nil, redirects: nil, retry: retries > 0 ? RetryPolicy(maxAttempts: retries + 1) : nil)
        if let maxPerHost { configuration.plugins.append(.concurrencyLimit(ConcurrencyLimiter(maxExchangesPerHost: maxPerHost))) }
        if coalesce { configuration.plugins.append(.coalescing(CoalescingPolicy())) }
        if cache {
            configuration.plugins.append(.cache(shared.map(CacheArgument.fleetCache) ?? HTTPCache()))
        }
        if let rateLimit {
            let limits = RateLimits(requestsPerSecond: rateLimit, burst: max(1, Int(rateLimit.rounded(.down))))
            let sharing = shared.map { RateLimitSharing(ledger: PostgresRateLimitLedger(shared: $0)) }
            configuration.plugins.append(.rateLimit(RateLimiter(limits: limits, sharing: sharing)))
        }
        if let breakerFailures {
            let sharing = shared.map { CircuitSharing(store: PostgresCircuitStateStore(shared: $0)) }
            configuration.plugins.append(.circuitBreaker(CircuitBreaker(policy: .consecutiveFailures(breakerFailures), sharing: sharing)))
        }
        return configuration
    }
}

/// The outcomes of a burst, counted.
struct BurstTally {
    var calls = 0
    var ok = 0
    var statuses: [Int: Int] = [:]
    var errors: [String: Int] = [:]
    var bodies: Set<String> = []
    var elapsed: Duration = .zero

    init(_ results: [Result<BufferedResponse, SwitchyardError>], elapsed: Duration) {
        self.elapsed = elapsed
        calls = results.count
        for result in results {
            switch result {
            case .success(let response):
                ok += 1
                statuses[response.head.status.code, default: 0] += 1
                if (200..<300).contains(response.head.status.code) {
                    bodies.insert(SHA256.hash(data: response.body).map { String(format: "%02x", $0) }.joined())
                }
            case .failure(let error):
                errors[error.kind.rawValue, default: 0] += 1
            }
        }
    }

    var elapsedMilliseconds: Double {
        Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
    }

    var json: JSONValue {
        .object([
            "calls": .integer(Int64(calls)),
            "ok": .integer(Int64(ok)),
            "statuses": .object(JSONObject(statuses.sorted { $0.key < $1.key }.map { (String($0.key), .integer(Int64($0.value))) })),
            "errors": .object(JSONObject(errors.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
            "distinct_bodies": .integer(Int64(bodies.count)),
            "elapsed_ms": .rounded(elapsedMilliseconds)
        ])
    }

    var summary: String {
        let statusText = statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
        let errorText = errors.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
        return "\(calls) calls, \(ok) answered [\(statusText)]" + (errors.isEmpty ? "" : ", failed [\(errorText)]")
            + ", \(bodies.count) distinct 2xx bodies, \(Int(elapsedMilliseconds.rounded())) ms"
    }
}
