import Foundation
import HTTPTypes
import Switchyard
import SwitchyardObservability

/// The chain `yard demo` assembles: the built-ins plus a small department plugin.
enum DemoChain {
    /// The header the catalog department adds to its own endpoints.
    static let departmentHeaderName = "X-Department"

    /// Events on `events`, statistics into `stats`; a catalog plugin scoped to `/echo/catalog`;
    /// retry with a short back-off.
    static func configuration(events: EventBus, stats: TimingStats) -> ClientConfiguration {
        var retry = RetryPolicy(maxAttempts: 3)
        retry.backoff = RetryBackoff(base: .milliseconds(50))
        let catalog = Plugin(
            name: "catalog",
            scope: RequestScope(pathPrefixes: ["/echo/catalog"]),
            headerRules: [.set(departmentHeaderName, "catalog")])
        stats.register(template: "/flaky/{key}/{failures}")
        stats.register(template: "/malformed/{kind}")
        stats.register(template: "/pages/{list}")
        var configuration = ClientConfiguration(events: events, retry: retry, plugins: [catalog])
        configuration.plugins.append(.timingStats(stats))
        return configuration
    }

    /// The department header's value in an `/echo` JSON body, if the server received one.
    static func departmentHeader(in echoBody: [UInt8]) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(echoBody)) as? [String: Any],
            let headers = object["headers"] as? [[String]]
        else { return nil }
        return headers.first { $0.first?.lowercased() == departmentHeaderName.lowercased() }?.last
    }
}
