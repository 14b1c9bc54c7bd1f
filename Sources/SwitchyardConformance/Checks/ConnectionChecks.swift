import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    static let connectionChecks: [ConformanceCheck] = [
        ConformanceCheck(
            "connection-phases", .connections,
            "A new connection reports DNS, connect, request start, first byte, total, one new connection and the"
                + " server's address, in order; a reused one reports no connect or TLS phase and no new connection"
        ) { h in
            var options = RequestOptions()
            options.publishesConnectionEvents = true
            let first = try await h.send(try h.request(.get, "/small", options: options)).timings
            let second = try await h.send(try h.request(.get, "/small", options: options)).timings
            try expectEqual(h.server.acceptedConnections, 1, "connections the server accepted")
            try expectOrdered(first, "new connection")
            try expectOrdered(second, "reused connection")
            try expect(
                second.connect == nil && second.tls == nil,
                "a reused connection reports connect \(String(describing: second.connect)) and TLS \(String(describing: second.tls))")
            try expect(second.newConnections ?? 0 == 0, "a reused connection reports \(second.newConnections ?? 0) new connections")
            try expect(first.tls == nil, "plain HTTP reports a TLS phase: \(String(describing: first.tls))")
            // The fields a transport cannot give, in a fixed order: its declared limitation names them.
            var missing: [String] = []
            let phases: [(String, Duration?)] = [
                ("dns", first.dns), ("connect", first.connect), ("requestStart", first.requestStart),
                ("firstByte", first.firstByte), ("total", first.total)
            ]
            for (name, value) in phases where value == nil { missing.append(name) }
            if first.newConnections != 1 || second.newConnections != 0 { missing.append("newConnections") }
            if first.remoteAddress != "127.0.0.1" || first.remotePort != h.server.port { missing.append("remoteAddress") }
            try expect(missing.isEmpty, "connection fields missing: [\(missing.joined(separator: ", "))] in \(first)")
        },
        ConformanceCheck(
            "connection-events", .connections,
            "A request that asks gets connectionOpened on a new connection, connectionReused (same connection) on"
                + " the next, and connectionClosed when the server closes it"
        ) { h in
            let bus = EventBus()
            let events = Lock<[ExchangeEvent]>([])
            bus.addObserver { event in
                if case .plugin = event.kind { events.withLock { $0.append(event) } }
            }
            let client = Client(transport: h.transport, interceptors: [], events: bus)
            var options = RequestOptions()
            options.publishesConnectionEvents = true
            func send(_ headers: KeyValuePairs<String, String> = [:]) async throws -> UInt64 {
                let response = try await client.send(try h.request(.get, "/small", headers: headers, options: options))
                try expectEqual(response.head.status.code, 200, "status")
                return response.context.id
            }
            func names(of exchange: UInt64) -> [String] {
                events.withLock { $0.filter { $0.exchangeID == exchange }.map(\.kind.name) }
            }
            func connection(of exchange: UInt64, _ name: String) -> ConnectionInfo? {
                events.withLock { all in
                    all.first { $0.exchangeID == exchange && $0.kind.name == name }.flatMap { event in
                        event.plugin(ConnectionOpened.self)?.connection ?? event.plugin(ConnectionReused.self)?.connection
                            ?? event.plugin(ConnectionClosed.self)?.connection
                    }
                }
            }
            let first = try await send()
            try expectEqual(names(of: first), ["connectionOpened"], "events of the first request (new connection)")
            let second = try await send()
            try expectEqual(names(of: second), ["connectionReused"], "events of the second request (same connection)")
            let opened = connection(of: first, "connectionOpened")
            try expect(opened?.id != nil, "the new connection has no number: \(String(describing: opened))")
            try expectEqual(connection(of: second, "connectionReused"), opened, "the reused connection")
            try expectEqual(opened?.remoteAddress, "127.0.0.1", "the connection's remote address")
            try expectEqual(opened?.remotePort, h.server.port, "the connection's remote port")
            // The server answers `Connection: close` and closes: the close may follow the response.
            let third = try await send(["Connection": "close"])
            let closed = await waitUntil { names(of: third).contains("connectionClosed") }
            try expect(closed, "no connectionClosed after the server closed the connection: \(names(of: third))")
            try expectEqual(names(of: third), ["connectionReused", "connectionClosed"], "events of the closing request")
            try expectEqual(connection(of: third, "connectionClosed"), opened, "the closed connection")
        }
    ]

    /// Fails unless the phases `timings` reports grow in their order (`dns ≤ connect ≤ tls ≤ requestStart
    /// ≤ firstByte ≤ total`).
    static func expectOrdered(_ timings: TransferTimings, _ what: String) throws {
        let phases = timings.presentPhases
        for (earlier, later) in zip(phases, phases.dropFirst()) where earlier.value > later.value {
            throw ConformanceFailure(
                "\(what): \(earlier.name) \(earlier.value) is after \(later.name) \(later.value) in \(timings)")
        }
    }

    /// Polls `condition` every few milliseconds, for up to 60 s (a bound for a busy machine, not an
    /// expectation of speed); returns whether it held.
    static func waitUntil(_ condition: () -> Bool) async -> Bool {
        let end = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < end else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}
