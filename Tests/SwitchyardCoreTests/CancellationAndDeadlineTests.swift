import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite struct CancellationAndDeadlineTests {
    /// A transport that never answers on its own.
    private static let hanging = ClosureTransport { _, _ in
        try await Task.sleep(for: .seconds(3600))
        return Response(status: .ok)
    }

    @Test func deadlineStopsAHangingClosureTransport() async throws {
        let client = Client(transport: Self.hanging, interceptors: [])
        let request = try Request(url: "http://example.test/", options: RequestOptions(timeout: .milliseconds(50)))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(request) }
        #expect(error?.kind == .timeout)
    }

    @Test func taskCancellationEndsTheExchangeAsCancelled() async throws {
        let client = Client(transport: Self.hanging, interceptors: [])
        let task = Task { try await client.send(try Request(url: "http://example.test/")) }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        let result = await task.result
        guard case .failure(let error as SwitchyardError) = result else {
            Issue.record("expected a SwitchyardError, got \(result)")
            return
        }
        #expect(error.kind == .cancelled)
    }

    @Test func anAlreadyExpiredDeadlineNeverReachesTheTransport() async throws {
        let stub = StubTransport.status(.ok)
        let request = try Request(url: "http://example.test/", options: RequestOptions(deadline: .now - .seconds(1)))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await Client(transport: stub, interceptors: []).send(request) }
        #expect(error?.kind == .timeout)
        #expect(stub.callCount == 0)
    }

    @Test func effectiveDeadlineIsTheEarlierOfTimeoutAndDeadline() {
        let start = ContinuousClock.now
        let options = RequestOptions(timeout: .seconds(10), deadline: start + .seconds(2))
        #expect(options.effectiveDeadline(from: start) == start + .seconds(2))
        #expect(RequestOptions(timeout: .seconds(1)).effectiveDeadline(from: start) == start + .seconds(1))
        #expect(RequestOptions().effectiveDeadline(from: start) == nil)
    }
}
