import SwitchyardCore

/// Reads Linux's routing tables (`/proc/net/route`, `/proc/net/ipv6_route`) for a default route:
/// the probe behind `RouteConnectivitySource`.
enum RouteTable {
    /// `RTF_UP`: the route is usable.
    private static let routeUp: UInt32 = 0x1
    /// `RTF_REJECT`: an "unreachable" route (Linux lists one for IPv6 on `lo` when there is no network).
    private static let routeReject: UInt32 = 0x200

    /// Whether `/proc/net/route` text has a usable IPv4 default route (destination and mask
    /// `00000000`, flag `RTF_UP`).
    static func hasIPv4DefaultRoute(_ text: String) -> Bool {
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 8, fields[1] == "00000000", fields[7] == "00000000",
                let flags = UInt32(fields[3], radix: 16)
            else { continue }
            if flags & routeUp != 0, flags & routeReject == 0, fields[0] != "lo" { return true }
        }
        return false
    }

    /// Whether `/proc/net/ipv6_route` text has a usable IPv6 default route (`::/0`, flag
    /// `RTF_UP`, not a reject route, not on `lo`).
    static func hasIPv6DefaultRoute(_ text: String) -> Bool {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 10, fields[1] == "00", fields[0].allSatisfy({ $0 == "0" }),
                let flags = UInt32(fields[8], radix: 16)
            else { continue }
            if flags & routeUp != 0, flags & routeReject == 0, fields[9] != "lo" { return true }
        }
        return false
    }

    /// `online` when either table has a default route, `offline` when neither has, `unknown` when
    /// neither file can be read (no `/proc`, a sandbox).
    static func status(ipv4: String?, ipv6: String?) -> ConnectivityStatus {
        if ipv4 == nil, ipv6 == nil { return .unknown }
        if let ipv4, hasIPv4DefaultRoute(ipv4) { return .online }
        if let ipv6, hasIPv6DefaultRoute(ipv6) { return .online }
        return .offline
    }

    /// The text of a small `/proc` file (read to its end, at most 1 MiB), or `nil` when it cannot be read.
    static func read(_ path: String) -> String? {
        guard let file = try? FileDescriptor.reading(path) else { return nil }
        var bytes: [UInt8] = []
        while bytes.count < 1 << 20 {
            guard let chunk = try? file.read() else { return nil }
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The system's status now, from its routing tables.
    static func systemStatus() -> ConnectivityStatus {
        status(ipv4: read("/proc/net/route"), ipv6: read("/proc/net/ipv6_route"))
    }
}
