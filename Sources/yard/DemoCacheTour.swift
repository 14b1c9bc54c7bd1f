import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardTestServer

/// The cache part of `yard demo`: a response cached for one second, then served stale, with its
/// age, while the endpoint is "down" (answers 503).
struct DemoCacheTour {
    let server: LoopbackServer
    let transportName: String
    let client: Client

    func run() async throws {
        let key = "demo-\(transportName)"
        let name = "cache-\(transportName)"
        try client.register(.cache(HTTPCache(), name: name, scope: RequestScope(pathPrefixes: ["/cache"])))
        defer { try? client.unregister(pluginNamed: name) }
        let url = server.url("/cache/\(key)?max_age=1")

        try await show("first request", try Request(url: url))
        try await show("again at once", try Request(url: url))
        try await Task.sleep(for: .milliseconds(1_200))  // let the entry go stale
        server.setCacheMode(.status(503), key: key)
        var request = try Request(url: url)
        request.options.cachePolicy = .staleIfError
        try await show("server down, stale-if-error", request)
        server.setCacheMode(.ok, key: key)
    }

    private func show(_ label: String, _ request: Request) async throws {
        let response = try await client.send(request)
        let provenance = response.context.provenance
        let age = provenance.age.map { " · age \(DemoTour.format($0))" } ?? ""
        print(
            "   \(label): \(response.head.status.code) “\(response.text.trimmingCharacters(in: .newlines))” from \(provenance.source)\(age)"
        )
    }
}
