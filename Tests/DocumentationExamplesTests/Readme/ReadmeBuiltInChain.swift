import Logging
import Switchyard
import SwitchyardCurl
import SwitchyardObservability
import SwitchyardSigning
import Testing

// README.md, "The built-in chain and plugins": built and its chain checked (no request is sent);
// `secret` and `showBanner` are in StandIns.swift.
func readmeBuiltInChain() throws -> Client {
    var configuration = ClientConfiguration()  // events, redirects, retry on
    configuration.retry?.maxAttempts = 4  // 408/429/5xx, connection failures
    configuration.validation = StatusValidation(accepted: 200..<300)  // others throw .httpStatus
    configuration.maxResponseBytes = 10 << 20  // enforced while streaming
    configuration.headers = [  // each department, its own endpoints
        HeaderRules(owner: "app", rules: [.set("X-Client", "shop/5.2")]),
        HeaderRules(
            owner: "search", scope: RequestScope(pathPrefixes: ["/search"]),
            rules: [.set("X-Team", "search"), .set("X-Request-ID") { _, context in "req-\(context.id)" }])
    ]
    let stats = TimingStats()
    stats.register(template: "/users/{id}")
    configuration.popUps?.add(
        RequestScope(pathPrefixes: ["/payments"]),
        PopUpMessages(statuses: [503: "Payments are paused. You were not charged."]))
    configuration.plugins = [
        .timingStats(stats),  // print(stats.snapshot().table)
        .logging(LoggingConfiguration(logger: Logger(label: "shop.network"), redactedQueryParameters: ["token"])),
        .signing(
            scope: RequestScope(hosts: ["pay.example.com"]),
            signer: RequestSigner(keyID: "payments-2026", secret: Array(secret.utf8)))
    ]
    let client = try Client(transport: CurlTransport(), configuration: configuration)

    // The network layer never shows UI: it publishes events. One pop-up per burst of identical failures.
    Task {
        for await event in client.events!.subscribe() {
            if let popUp = event.popUp, popUp.isWorthShowing { await showBanner(popUp.message) }
        }
    }
    return client
}

@Suite struct ReadmeBuiltInChainTests {
    @Test func theReadmeChainAssembles() throws {
        let client = try readmeBuiltInChain()
        let names = client.chain.map { "\($0)" }.joined(separator: " ")
        #expect(names.contains("signing"))
        #expect(client.chain.first { $0.name == "TimingStatsInterceptor" }?.position == .call)
        #expect(client.chain.first { $0.name == "LoggingInterceptor" }?.position == .attempt)
    }
}
