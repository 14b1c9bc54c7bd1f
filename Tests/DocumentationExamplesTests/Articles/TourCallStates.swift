import Switchyard
import SwitchyardAPI
import Testing

// Sources/Switchyard/Switchyard.docc/Tour.md, "API objects and lists": a call prepared, followed
// through its states and started, run on the sample transport.
private struct User: Decodable, Sendable {
    var id: String
    var name: String
}

/// The Tour's example as written (it prints the states and the name).
private func tourCallStates(api: APIClient, profile: Endpoint<User>) async {
    // doc:tour-call-states
    let handle = api.prepare(profile)  // .notStarted: nothing sent yet
    let watcher = Task { for await state in handle.states { print(state) } }  // notStarted, running, succeeded
    handle.start()  // awaiting result() starts it too
    if case .succeeded(let response) = await handle.result() { print(response.value.name) }
    await watcher.value  // the stream ends with the final state
    // end
}

@Suite struct TourCallStatesTests {
    private static let profile = Endpoint<User>(.get, "/users/{id}", at: "data")
        .parameter("id", 42)
        .sample(json: #"{"data": {"id": "42", "name": "Ada"}}"#)

    private static func api() throws -> APIClient {
        try APIClient(client: Client(transport: SampleTransport(serving: [profile])), baseURL: "https://api.example.com")
    }

    @Test func theExampleRunsToTheEnd() async throws {
        await tourCallStates(api: try Self.api(), profile: Self.profile)
    }

    @Test func aPreparedCallWaitsForStartAndItsStatesEndWithTheOutcome() async throws {
        let handle = try Self.api().prepare(Self.profile)
        guard case .notStarted = handle.state else {
            Issue.record("a prepared call is \(handle.state), not notStarted")
            return
        }
        let states = handle.states
        let watcher = Task {
            var names: [String] = []
            for await state in states {
                switch state {
                case .notStarted: names.append("notStarted")
                case .running: names.append("running")
                case .succeeded(let response): names.append("succeeded \(response.value.name)")
                default: names.append("other")
                }
            }
            return names
        }
        handle.start()
        guard case .succeeded = await handle.result() else {
            Issue.record("the sample call did not succeed")
            return
        }
        let names = await watcher.value
        #expect(names.first == "notStarted")
        #expect(names.last == "succeeded Ada")
    }

    @Test func aCallCancelledBeforeItStartsNeverRuns() async throws {
        let handle = try Self.api().prepare(Self.profile)
        handle.cancel()
        handle.start()
        guard case .cancelled = await handle.result() else {
            Issue.record("a call cancelled before start ran: \(handle.state)")
            return
        }
    }
}
