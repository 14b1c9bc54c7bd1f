import Switchyard
import SwitchyardCurl
import SwitchyardTraffic

// README.md, "Rate limits": compiled, never run (it names api.example.com); the behaviour is
// tested in RateLimiterTests and RateLimitLoopbackTests. The body of this function is the README's
// block verbatim, under the same imports.
func readmeRateLimits() async throws {
    var configuration = ClientConfiguration()
    // At most 5 requests a second to each host, in bursts of up to 10.
    configuration.plugins.append(.rateLimit(RateLimiter(requestsPerSecond: 5, burst: 10)))
    // And one request a second to the search API, all hosts together.
    let search = RateLimiter(
        limits: RateLimits(requestsPerSecond: 1, burst: 1, keying: .shared, scope: RequestScope(pathPrefixes: ["/search"])))
    configuration.plugins.append(.rateLimit(search, name: "searchRate"))
    let client = try Client(transport: CurlTransport(), configuration: configuration)

    // A request waiting for a token keeps its deadline, and leaves the queue when cancelled.
    var request = try Request(url: "https://api.example.com/search?q=switchyard")
    request.options.timeout = .seconds(10)
    let results = try await client.send(request)
    _ = results
}
