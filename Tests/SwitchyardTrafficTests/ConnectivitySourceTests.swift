import Synchronization
import Testing

@testable import Switchyard
@testable import SwitchyardCore
@testable import SwitchyardTraffic

@Suite struct ConnectivitySourceTests {
    @Test func aManualSourceStreamsItsStatusAndChanges() async {
        let source = ManualConnectivitySource(.online)
        var changes = source.changes().makeAsyncIterator()
        #expect(await changes.next() == .online)
        source.status = .online  // no change, nothing sent
        source.status = .offline
        #expect(await changes.next() == .offline)
        #expect(source.status == .offline)
    }

    @Test func waitingForConnectivityThrowsTimeoutOrReturns() async throws {
        let source = ManualConnectivitySource(.offline)
        let error = await #expect(throws: SwitchyardError.self) {
            try await source.waitForConnectivity(until: .now + .milliseconds(50))
        }
        #expect(error?.kind == .timeout)
        source.status = .unknown  // unknown never holds a request back
        try await source.waitForConnectivity(until: .now)
    }

    @Test func theRouteTableTellsADefaultRoute() {
        let ipv4 = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0
            eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            """
        let ipv4NoDefault = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            """
        let ipv6 = """
            fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000002 00000000 00000001     eth0
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth0
            """
        let ipv6Unreachable = """
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
            """
        #expect(RouteTable.status(ipv4: ipv4, ipv6: nil) == .online)
        #expect(RouteTable.status(ipv4: ipv4NoDefault, ipv6: ipv6) == .online)
        #expect(RouteTable.status(ipv4: ipv4NoDefault, ipv6: ipv6Unreachable) == .offline)
        #expect(RouteTable.status(ipv4: nil, ipv6: nil) == .unknown)
    }

    @Test func aRouteSourceReportsWhatItsProbeFinds() async {
        let online = Atomic(true)
        let source = RouteConnectivitySource(interval: .milliseconds(50)) { online.load(ordering: .relaxed) ? .online : .offline }
        #expect(source.status == .online)
        var changes = source.changes().makeAsyncIterator()
        #expect(await changes.next() == .online)
        online.store(false, ordering: .relaxed)
        #expect(await changes.next() == .offline)  // found by the polling task, however long it takes
        #expect(source.status == .offline)
    }
}
