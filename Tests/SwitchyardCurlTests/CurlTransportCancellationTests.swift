import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import Testing

@Suite struct CurlTransportCancellationTests {
    @Test func cancellingWhileWaitingForTheHeadClosesTheConnection() async throws {
        try await withCurlClient { client, server in
            let task = Task { try await client.send(try Request(url: server.url("/stall?tag=head"))) }
            while server.requestCount(path: "/stall") == 0 { try await Task.sleep(for: .milliseconds(5)) }
            task.cancel()
            let result = await task.result
            guard case .failure(let error as SwitchyardError) = result else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(await server.waitForDisconnect(tag: "head", timeout: .seconds(5)))
        }
    }

    @Test func cancellingMidBodyClosesTheConnection() async throws {
        try await withCurlClient { client, server in
            let response = try await client.stream(try Request(url: server.url("/stall-body?tag=body&bytes=4096")))
            let reader = Task {
                var received = 0
                for try await chunk in response.body { received += chunk.count }
                return received
            }
            while !server.hasDisconnected(tag: "body"), reader.isCancelled == false {
                try await Task.sleep(for: .milliseconds(20))
                reader.cancel()
            }
            let result = await reader.result
            guard case .failure(let error as SwitchyardError) = result else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(await server.waitForDisconnect(tag: "body", timeout: .seconds(5)))
        }
    }

    @Test func droppingAStreamedBodyClosesTheConnection() async throws {
        try await withCurlClient { client, server in
            do {
                let response = try await client.stream(try Request(url: server.url("/bytes/50000000?tag=dropped")))
                #expect(response.head.status == .ok)
            }
            #expect(await server.waitForDisconnect(tag: "dropped", timeout: .seconds(5)))
        }
    }

    @Test func cancellationBeforeSendingSendsNothing() async throws {
        try await withCurlClient { client, server in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.send(try Request(url: server.url("/echo")))
            }
            let result = await task.result
            guard case .failure(let error as SwitchyardError) = result else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(server.requestCount(path: "/echo") == 0)
        }
    }
}
