import Switchyard
import SwitchyardCurl
import SwitchyardTraffic

// README.md, "Traffic control" and "TLS and proxies": compiled (they name api.example.com and a
// CA file); `Spinner` is in StandIns.swift.
@MainActor
func readmeTrafficControl(spinner: Spinner) async throws {
    let tracker = ExchangeTracker()
    var configuration = ClientConfiguration()
    configuration.plugins = [
        .concurrencyLimit(ConcurrencyLimiter(maxExchanges: 16, maxExchangesPerHost: 4)),
        .tracking(tracker),
        .coalescing(CoalescingPolicy()),
        .circuitBreaker(CircuitBreaker(policy: CircuitBreakerPolicy()))
    ]
    let client = try Client(transport: CurlTransport(), configuration: configuration)

    var request = try Request(url: "https://api.example.com/me")
    request.options.tags = ["profile-screen"]
    request.options.priority = .userInitiated
    async let me = client.send(request)
    tracker.cancel(tagged: "profile-screen")  // the screen went away: everything it started ends
    for await activity in tracker.activityUpdates() { spinner.isHidden = !activity.isActive }
    _ = try await me
}

func readmeTLSAndProxies() throws -> Client {
    var configuration = CurlTransport.Configuration()
    configuration.tls = TLSOptions(
        trustRoots: .systemAnd(certificateFiles: ["corp-ca.pem"]),
        pinnedPublicKeys: [try .init("sha256//AAAA…=")])
    configuration.proxy = try ProxyConfiguration.fromEnvironment()
    let client = Client(transport: CurlTransport(configuration: configuration))
    return client
}
