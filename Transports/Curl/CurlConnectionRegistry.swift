import CCurl
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The connections of one curl transport that requests asked connection events about
/// (`RequestOptions.publishesConnectionEvents`), by socket: so that a reused connection is named
/// with the number it was opened with, and its closing is published on the last exchange that
/// watched it. Confined to the event-loop thread, like every libcurl callback.
///
/// libcurl tells a transfer, during the transfer, whether it opened a connection
/// (`CURLINFO_NUM_CONNECTS`) and the connection's local and remote ports, but not its socket. A
/// watched transfer therefore arms `CURLOPT_SOCKOPTFUNCTION`, which hands over each socket libcurl
/// creates for it (several when it races IPv6 and IPv4); the one still open with the connection's
/// local port is the connection. Every connection closes through `CURLOPT_CLOSESOCKETFUNCTION`, whose
/// data (this registry) the connection keeps from the handle that opened it.
///
/// Nothing is recorded for transfers that do not ask: their only cost is the closing callback, once
/// per connection, which finds the registry empty.
final class CurlConnectionRegistry {
    /// A watched connection.
    private struct Entry {
        let info: ConnectionInfo
        let localPort: Int
        /// The last watching exchange and its request (without the body), which its closing is published on.
        var context: ExchangeContext
        var request: Request
    }

    private var entries: [curl_socket_t: Entry] = [:]
    /// Sockets created for watched transfers and not yet closed or claimed, with their transfer.
    private var pendingSockets: [curl_socket_t: ObjectIdentifier] = [:]
    private var nextID: UInt64 = 1

    /// libcurl created `socket` for a connection of the watched transfer `owner`.
    func socketCreated(_ socket: curl_socket_t, by owner: ObjectIdentifier) {
        pendingSockets[socket] = owner
    }

    /// libcurl closes `socket`: publishes ``ConnectionClosed`` if it is a watched connection.
    func closing(_ socket: curl_socket_t) {
        if !pendingSockets.isEmpty { pendingSockets[socket] = nil }
        guard !entries.isEmpty, let entry = entries.removeValue(forKey: socket) else { return }
        entry.context.publish(.plugin(ConnectionClosed(connection: entry.info)), request: entry.request)
    }

    /// The watched transfer `owner` opened a connection with `localPort`: finds its socket among
    /// `created` and records the connection under a new number.
    /// - Returns: The connection, numbered even when its socket is gone already (a connection that
    ///   failed during its set-up).
    func opened(
        by owner: ObjectIdentifier, created: [curl_socket_t], localPort: Int, remoteAddress: String?, remotePort: Int?,
        context: ExchangeContext, request: Request
    ) -> ConnectionInfo {
        let info = ConnectionInfo(id: nextID, remoteAddress: remoteAddress, remotePort: remotePort)
        nextID += 1
        let candidates = created.filter { pendingSockets[$0] == owner }
        let socket =
            candidates.count == 1 ? candidates.first : candidates.last { Self.localPort(of: $0) == localPort }
        guard let socket else { return info }
        pendingSockets[socket] = nil
        entries[socket] = Entry(info: info, localPort: localPort, context: context, request: Self.withoutBody(request))
        return info
    }

    /// A watched transfer went over an existing connection: its number when it was watched before
    /// (and it now belongs to this exchange), or a description without a number.
    func reused(
        localPort: Int, remoteAddress: String?, remotePort: Int?, context: ExchangeContext, request: Request
    ) -> ConnectionInfo {
        let found = entries.first { _, entry in
            entry.localPort == localPort && entry.info.remotePort == remotePort && entry.info.remoteAddress == remoteAddress
        }
        guard let (socket, entry) = found else {
            return ConnectionInfo(remoteAddress: remoteAddress, remotePort: remotePort)
        }
        entries[socket]?.context = context
        entries[socket]?.request = Self.withoutBody(request)
        return entry.info
    }

    /// The request as events need it: a body is not kept alive for as long as the connection lives.
    private static func withoutBody(_ request: Request) -> Request {
        var request = request
        request.body = nil
        return request
    }

    /// The local port `socket` is bound to, or `nil`.
    private static func localPort(of socket: curl_socket_t) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard result == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return nil
        }
    }
}

// MARK: - C callbacks

/// `CURLOPT_CLOSESOCKETFUNCTION`, with the transport's registry as its data: tells the registry, then closes.
let curlCloseSocketCallback: curl_closesocket_callback = { clientp, socket in
    if let clientp {
        Unmanaged<CurlConnectionRegistry>.fromOpaque(clientp).takeUnretainedValue().closing(socket)
    }
    return close(socket)
}
