import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

@Suite(.timeLimit(.minutes(3))) struct BatchLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func failFastCancelsTheRestOnTheFirstFailure(kind: TransportKind) async throws {
        try await withLimitedClient(kind, limiter: ConcurrencyLimiter()) { client, server in
            let key = "batch-\(kind)"
            var requests = try (0..<3).map { try ConcurrencyLimitLoopbackTests.gated(server, key: key, id: "\($0)") }
            requests.append(try Request(url: server.url("/small")))
            let batch = Task { await client.send(all: requests, maxConcurrency: 4, mode: .failFast) }
            #expect(await eventually { server.gate(key: key).held == 3 })
            // Batch.run on its own: the failure of the first cancels the second.
            let refused = Task {
                await Batch.run([0, 1], mode: .failFast) { (index: Int) async throws(SwitchyardError) -> Int in
                    if index == 0 { throw SwitchyardError(.connectionFailed, "refused") }
                    do { try await Task.sleep(for: .seconds(600)) } catch { throw .cancelled }  // cancelled by the first's failure
                    return index
                }
            }
            let outcomes = await refused.value
            #expect(outcomes.count == 2)
            #expect((try? outcomes[0].get()) == nil)
            if case .failure(let error) = outcomes[1] { #expect(error.kind == .cancelled) } else { Issue.record("not cancelled") }
            batch.cancel()  // the batch is one unit: cancelling it cancels every request in flight
            let results = await batch.value
            #expect(results.count == 4)
            for index in 0..<3 {
                if case .failure(let error) = results[index] { #expect(error.kind == .cancelled) } else { Issue.record("\(index)") }
                #expect(await server.waitForDisconnect(tag: "\(key)-\(index)", timeout: .seconds(30)))
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func failFastStopsAtARealFailureAndCollectAllReportsEveryOutcome(kind: TransportKind) async throws {
        try await withLimitedClient(kind, limiter: ConcurrencyLimiter()) { client, server in
            let key = "batch2-\(kind)"
            let unreachable = try Request(url: "http://127.0.0.1:9/nothing-listens-here")
            var requests = [try ConcurrencyLimitLoopbackTests.gated(server, key: key, id: "held")]
            requests.append(unreachable)
            requests.append(try Request(url: server.url("/small")))
            let results = await client.send(all: requests, maxConcurrency: 2, mode: .failFast)
            if case .failure(let error) = results[0] { #expect(error.kind == .cancelled) } else { Issue.record("held one not cancelled") }
            if case .failure(let error) = results[1] { #expect(error.kind == .connectionFailed) } else { Issue.record("no failure") }
            if case .failure(let error) = results[2] { #expect(error.kind == .cancelled) } else { Issue.record("third started") }
            // The refused connection may fail before the held request is on the wire (AsyncHTTPClient
            // alone on the machine: always): then cancelling it sent nothing; if it reached the server,
            // cancelling closed its connection.
            if server.gate(key: key).arrivals.contains("held") {
                #expect(await server.waitForDisconnect(tag: "\(key)-held", timeout: .seconds(30)))
            }
            #expect(server.requestCount(path: "/small") == 0)

            let all = await client.send(all: [unreachable, try Request(url: server.url("/small"))], mode: .collectAll)
            #expect((try? all[0].get()) == nil)
            #expect(try all[1].get().text == "hello, world\n")
        }
    }

    @Test func aSequenceFeedsEachResponseIntoTheNextRequest() async throws {
        try await withLimitedClient(.curl, limiter: ConcurrencyLimiter()) { client, server in
            let responses = try await client.send(
                first: try Request(url: server.url("/status/201")),
                then: [
                    { previous in try Request(url: server.url("/status/\(previous.head.status.code + 1)")) },
                    { previous in try Request(url: server.url("/status/\(previous.head.status.code + 1)")) }
                ])
            #expect(responses.map(\.head.status.code) == [201, 202, 203])
        }
    }
}
