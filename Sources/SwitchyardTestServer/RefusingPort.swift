import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port that refuses every connection and stays refusing: a TCP socket bound to it that
/// never listens. Unlike the port of a server that was shut down, no other test's server can take it
/// while the test runs (on a busy machine the kernel hands freed ports out again).
///
/// ```swift
/// let refusing = try RefusingPort()
/// let url = refusing.url("/small")   // connecting fails with ECONNREFUSED
/// …
/// refusing.close()                   // at the end (it also keeps the port held until then)
/// ```
///
/// A test that needs one address to answer and then refuse (a cache serving a stored response once
/// its server is gone, say) claims the server's port the moment the server is shut down, which leaves
/// the kernel no time to hand it to another test's server:
///
/// ```swift
/// try await server.shutdown()
/// let refusing = try RefusingPort(port: server.port)   // server.url(…) now refuses
/// ```
public final class RefusingPort: Sendable {
    /// The port.
    public let port: Int
    private let descriptor: Int32
    private let closed = Atomic(false)

    /// Binds a socket to a free loopback port without listening on it.
    /// - Throws: `RefusingPortError` when no socket could be bound.
    public convenience init() throws {
        try self.init(binding: 0)
    }

    /// Binds a socket to `port` on loopback without listening on it: claims the port of a server just
    /// shut down, so the server's URLs refuse from now on (the server's closed connections may still
    /// hold the port in `TIME_WAIT`, which the socket allows).
    /// - Parameter port: The port to claim.
    /// - Throws: `RefusingPortError` when the port is not valid or is taken (another socket listens on it).
    public convenience init(port: Int) throws {
        guard let claimed = UInt16(exactly: port), claimed != 0 else { throw RefusingPortError(errno: EINVAL) }
        try self.init(binding: claimed)
    }

    private init(binding port: UInt16) throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw RefusingPortError(errno: errno) }
        if port != 0 {
            var reuse: Int32 = 1
            guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                let error = RefusingPortError(errno: errno)
                _ = Self.closeDescriptor(descriptor)
                throw error
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            let error = RefusingPortError(errno: errno)
            _ = Self.closeDescriptor(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:PORT` followed by `pathAndQuery`.
    public func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(port)\(pathAndQuery)" }

    /// Releases the port (once; later calls do nothing).
    public func close() {
        if !closed.exchange(true, ordering: .relaxed) { _ = Self.closeDescriptor(descriptor) }
    }

    deinit { close() }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }
}

/// Binding a refusing port failed.
public struct RefusingPortError: Error, CustomStringConvertible {
    /// The system's error number.
    public let errno: Int32
    /// What failed.
    public var description: String { "binding a loopback socket failed (errno \(errno))" }
}
