import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    static let cancellationChecks: [ConformanceCheck] = [
        ConformanceCheck("cancel-before-send", .cancellation, "A task cancelled before sending fails with cancelled and sends nothing") {
            h in
            let request = try h.request(.get, "/small")
            let transport = h.transport
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                _ = try await transport.send(request, context: ExchangeContext())
            }
            try await h.expectFailure(.cancelled, "sending from a cancelled task") { try await task.value }
            try await Task.sleep(for: .milliseconds(100))
            try expectEqual(h.server.requestCount(path: "/small"), 0, "requests the server received")
        },
        ConformanceCheck(
            "cancel-waiting-for-head", .cancellation, "Cancelling while waiting for the head fails with cancelled and closes the connection"
        ) { h in
            let request = try h.request(.get, "/stall?tag=head")
            let client = h.client
            let task = Task { _ = try await client.send(request) }
            try await waitUntil("the server receives the request") { h.server.requestCount(path: "/stall") == 1 }
            let cancelledAt = ContinuousClock.now
            task.cancel()
            try await h.expectFailure(.cancelled, "a cancelled exchange") { try await task.value }
            let failedAfter = cancelledAt.duration(to: .now)
            let closedAfter = await h.disconnectLatency(tag: "head", since: cancelledAt)
            try await h.expectDisconnect(tag: "head", after: "cancelling while waiting for the head")
            h.report(
                check: "cancel-waiting-for-head",
                [
                    "cancel_to_error_ms": failedAfter.formattedMilliseconds,
                    "cancel_to_server_close_ms": closedAfter?.formattedMilliseconds ?? "never"
                ])
        },
        ConformanceCheck("cancel-mid-body", .cancellation, "Cancelling mid-body fails the read with cancelled and closes the connection") {
            h in
            let request = try h.request(.get, "/stall-body?tag=body&bytes=4096")
            let client = h.client
            let (started, signal) = AsyncStream<Void>.makeStream()
            let task = Task {
                let response = try await client.stream(request)
                var iterator = response.body.makeAsyncIterator()
                _ = try await iterator.next()
                signal.yield()
                while try await iterator.next() != nil {}
            }
            var iterator = started.makeAsyncIterator()
            await iterator.next()
            let cancelledAt = ContinuousClock.now
            task.cancel()
            try await h.expectFailure(.cancelled, "reading a body after cancellation") { try await task.value }
            let failedAfter = cancelledAt.duration(to: .now)
            let closedAfter = await h.disconnectLatency(tag: "body", since: cancelledAt)
            try await h.expectDisconnect(tag: "body", after: "cancelling mid-body")
            h.report(
                check: "cancel-mid-body",
                [
                    "cancel_to_error_ms": failedAfter.formattedMilliseconds,
                    "cancel_to_server_close_ms": closedAfter?.formattedMilliseconds ?? "never"
                ])
        },
        ConformanceCheck("dropped-body", .cancellation, "Dropping an unread body closes the connection") { h in
            do {
                let response = try await h.client.stream(try h.request(.get, "/stall-body?tag=drop&bytes=4096"))
                try expectEqual(response.head.status.code, 200, "status")
            }
            try await h.expectDisconnect(tag: "drop", after: "dropping the unread body")
        },
        ConformanceCheck("abandoned-body", .cancellation, "Dropping a partly read body closes the connection") { h in
            do {
                // 64 KiB of a body declared at 1 GB, then silence: only the client can end it.
                let response = try await h.client.stream(try h.request(.get, "/stall-body?bytes=65536&tag=abandoned"))
                var iterator = response.body.makeAsyncIterator()
                guard let first = try await iterator.next(), !first.isEmpty else { throw ConformanceFailure("the body ended at once") }
            }
            try await h.expectDisconnect(tag: "abandoned", after: "dropping a partly read body")
        },
        ConformanceCheck(
            "deadline-waiting-for-head", .cancellation, "A deadline passing before the head fails with timeout and closes the connection"
        ) { h in
            let request = try h.request(.get, "/stall?tag=late", options: RequestOptions(timeout: .milliseconds(300)))
            try await h.expectFailure(.timeout, "a stalled server with a 300 ms timeout") { _ = try await h.client.send(request) }
            try await h.expectDisconnect(tag: "late", after: "the deadline")
        },
        ConformanceCheck("deadline-mid-body", .cancellation, "A deadline passing mid-body fails with timeout and closes the connection") {
            h in
            let request = try h.request(.get, "/stall-body?tag=slowbody&bytes=4096", options: RequestOptions(timeout: .milliseconds(500)))
            try await h.expectFailure(.timeout, "a body that stalls with a 500 ms timeout") { try await h.drain(request) }
            try await h.expectDisconnect(tag: "slowbody", after: "the deadline")
        }
    ]

    /// Polls `condition` every 5 ms for up to 60 s (a bound for a busy machine, not a speed expectation).
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw ConformanceFailure("timed out waiting until \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

extension Duration {
    /// Milliseconds with two decimals, e.g. `"0.42"`.
    fileprivate var formattedMilliseconds: String {
        let (seconds, attoseconds) = components
        let hundredths = (Double(seconds) * 1e3 + Double(attoseconds) / 1e15) * 100
        let rounded = Int64(hundredths.rounded())
        let fraction = String(rounded % 100)
        return "\(rounded / 100).\(fraction.count == 1 ? "0" + fraction : fraction)"
    }
}
