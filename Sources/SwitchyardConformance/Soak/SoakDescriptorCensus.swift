import Foundation

/// The process's open file descriptors by what they are (Linux: `/proc/self/fd` and
/// `/proc/self/net`), so descriptors left after a soak can be told apart: a TCP connection's client
/// or server side and its state, a listening socket, a pipe, an event descriptor, a file.
public struct SoakDescriptorCensus: Sendable, Hashable, CustomStringConvertible {
    /// Descriptors by kind, e.g. `"tcp client ESTABLISHED": 2`, `"eventfd": 3`, `"pipe": 2`.
    public var counts: [String: Int]

    /// All descriptors counted.
    public var total: Int { counts.values.reduce(0, +) }

    /// The kinds and counts, sorted by kind: `"epoll 2, eventfd 3, tcp listening 1"`.
    public var description: String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// What is open now.
    /// - Parameter serverPort: The embedded server's port: a TCP socket with it as its local port is
    ///   the server's side of a connection (`tcp server …`), one with it as its remote port the client's
    ///   (`tcp client …`).
    public static func now(serverPort: Int) -> Self {
        let directory = "/proc/self/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return Self(counts: [:]) }
        let sockets = TCPSocketTable.read()
        let unixSockets = unixSocketInodes()
        var counts: [String: Int] = [:]
        for entry in entries {
            // The directory listing's own descriptor is closed by now: its link no longer resolves.
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(entry)") else { continue }
            let kind = kind(
                of: target, descriptor: Int32(entry), sockets: sockets, unixSockets: unixSockets, serverPort: serverPort)
            counts[kind, default: 0] += 1
        }
        return Self(counts: counts)
    }

    /// The kind of `descriptor`, whose link points at `target`.
    static func kind(
        of target: String, descriptor: Int32?, sockets: [String: TCPSocketTable.Entry], unixSockets: Set<String>,
        serverPort: Int
    ) -> String {
        if target.hasPrefix("socket:[") {
            let inode = String(target.dropFirst("socket:[".count).dropLast())
            guard let socket = sockets[inode] else {
                if unixSockets.contains(inode) { return "unix socket" }
                return descriptor.map(unlistedSocketKind) ?? "socket"
            }
            if socket.state == "LISTEN" { return "tcp listening" }
            let side = socket.localPort == serverPort ? "server " : socket.remotePort == serverPort ? "client " : ""
            return "tcp \(side)\(socket.state)"
        }
        if target.hasPrefix("pipe:") { return "pipe" }
        if target.hasPrefix("anon_inode:") {
            return String(target.dropFirst("anon_inode:".count)).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        }
        if target.hasPrefix("/dev/") { return target }
        return "file"
    }

    /// The kind of a socket in neither the TCP nor the Unix table: a TCP socket leaves the kernel's
    /// table once its connection is reset or closed, or before it is bound, while its descriptor stays
    /// open until its owner closes it.
    private static func unlistedSocketKind(_ descriptor: Int32) -> String {
        #if os(Linux)
        var domain: Int32 = 0
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 else { return "socket" }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else { return "socket" }
        let isStream = type == Int32(SOCK_STREAM.rawValue)
        switch domain {
        case AF_INET, AF_INET6: return isStream ? "tcp without connection (reset, closed or unbound)" : "udp"
        default: return "socket (domain \(domain))"
        }
        #else
        return "socket"
        #endif
    }

    /// The inodes of the process's Unix-domain sockets (socket pairs included), from `/proc/self/net/unix`.
    private static func unixSocketInodes() -> Set<String> {
        guard let text = readWhole("/proc/self/net/unix") else { return [] }
        // Num RefCount Protocol Flags Type St Inode [Path]
        return Set(
            text.split(separator: "\n").dropFirst().compactMap { line in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                return fields.count > 6 ? String(fields[6]) : nil
            })
    }
}

/// The whole of a `/proc` file, read to its end: they report a size of 0 and come a page per read,
/// so `String(contentsOfFile:)` returns only the first page.
func readWhole(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.readToEnd() else { return nil }
    return String(decoding: data, as: UTF8.self)
}

/// The process's TCP sockets, from `/proc/self/net/tcp` and `tcp6`, by inode.
enum TCPSocketTable {
    /// One socket: its state and ports.
    struct Entry: Hashable {
        var state: String
        var localPort: Int
        var remotePort: Int
    }

    /// The kernel's TCP state numbers (include/net/tcp_states.h).
    private static let states = [
        1: "ESTABLISHED", 2: "SYN_SENT", 3: "SYN_RECV", 4: "FIN_WAIT1", 5: "FIN_WAIT2", 6: "TIME_WAIT",
        7: "CLOSE", 8: "CLOSE_WAIT", 9: "LAST_ACK", 10: "LISTEN", 11: "CLOSING"
    ]

    /// Both tables' sockets by inode (empty where unreadable).
    static func read() -> [String: Entry] {
        var entries: [String: Entry] = [:]
        for path in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            guard let text = readWhole(path) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 9, let local = port(fields[1]), let remote = port(fields[2]),
                    let number = Int(fields[3], radix: 16)
                else { continue }
                entries[String(fields[9])] = Entry(state: states[number] ?? "state \(number)", localPort: local, remotePort: remote)
            }
        }
        return entries
    }

    /// The port of an `ADDRESS:PORT` field (both hexadecimal).
    private static func port(_ field: Substring) -> Int? {
        guard let colon = field.lastIndex(of: ":") else { return nil }
        return Int(field[field.index(after: colon)...], radix: 16)
    }
}
