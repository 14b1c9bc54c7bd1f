import HTTPTypes
import Logging
import ServiceLifecycle
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardServiceLifecycle
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Records whether the transport it wraps was shut down.
private final class ShutdownProbe: Transport {
    let base: any Transport
    let shutDown = Lock(false)

    init(_ base: any Transport) { self.base = base }

    func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        try await base.send(request, context: context)
    }

    func shutdown() async throws {
        try await base.shutdown()
        shutDown.withLock { $0 = true }
    }
}

@Suite(.timeLimit(.minutes(2))) struct TransportServiceTests {
    @Test(arguments: [TransportKind.curl, .asyncHTTPClient])
    func gracefulShutdownOfTheGroupShutsTheTransportDown(_ kind: TransportKind) async throws {
        try await withLoopbackServer { server in
            let probe = ShutdownProbe(kind.make())
            let client = Client(transport: probe, interceptors: [])
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(services: [TransportService(probe)], logger: Logger(label: "test")))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let response = try await client.send(try Request(url: server.url("/small")))
                #expect(response.head.status == .ok)
                #expect(!probe.shutDown.withLock { $0 })
                await group.triggerGracefulShutdown()
                try await tasks.next()  // the group returns
                #expect(probe.shutDown.withLock { $0 })
            }
        }
    }
}
