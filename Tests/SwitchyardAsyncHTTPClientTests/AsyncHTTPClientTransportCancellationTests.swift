import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportCancellationTests {
    @Test func cancellingMidBodyWithADeadlineClosesTheConnection() async throws {
        try await withAHCClient { client, server in
            var request = try Request(url: server.url("/stall-body?tag=body-with-deadline&bytes=4096"))
            request.options.timeout = .seconds(60)
            let response = try await client.stream(request)
            let reader = Task {
                for try await _ in response.body {}
            }
            try await Task.sleep(for: .milliseconds(20))
            reader.cancel()
            guard case .failure(let error as SwitchyardError) = await reader.result else {
                Issue.record("expected cancellation")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(await server.waitForDisconnect(tag: "body-with-deadline", timeout: .seconds(60)))
        }
    }

}
