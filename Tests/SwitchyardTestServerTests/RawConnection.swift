import Glibc

/// Error from the raw socket test client.
struct RawSocketError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One parsed HTTP/1.1 response as seen on the wire.
struct RawResponse {
    var status: Int
    var statusLine: String
    /// Header fields in wire order, case preserved.
    var headers: [(name: String, value: String)]
    /// Exact head bytes including the final blank line.
    var headBytes: [UInt8]
    var body: [UInt8]

    var bodyText: String { String(decoding: body, as: UTF8.self) }
    var headText: String { String(decoding: headBytes, as: UTF8.self) }

    /// All values of `name` (case-insensitive), in order.
    func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The first value of `name`, if any.
    func value(_ name: String) -> String? { values(name).first }
}

/// A blocking TCP client over plain POSIX sockets: sends raw bytes, reads raw bytes.
/// A receive timeout (`SO_RCVTIMEO`) guards every read against hangs.
final class RawConnection {
    private var fd: Int32
    /// Bytes received but not consumed yet.
    private var pending: [UInt8] = []

    init(port: Int, receiveTimeoutSeconds: Int = 30) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawSocketError("socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            // Through close(), which forgets the descriptor: self is fully initialised here, so its
            // deinit runs when this init throws, and a second close of the same number would close
            // whatever the process opened with it meanwhile (another test's listening socket).
            close()
            throw RawSocketError("connect() failed: errno \(error)")
        }
    }

    deinit { close() }

    /// Closes the socket (idempotent).
    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { throw RawSocketError("send() failed: errno \(errno)") }
            sent += n
        }
    }

    /// Receives into `pending`; returns false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            let error = errno
            if error == EINTR { return true }
            throw RawSocketError(error == EAGAIN ? "recv() timed out" : "recv() failed: errno \(error)")
        }
        if n == 0 { return false }
        pending.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Everything until the peer closes (including already-buffered bytes).
    func readUntilClose(limit: Int = 256 * 1024 * 1024) throws -> [UInt8] {
        while try fill() {
            if pending.count > limit { throw RawSocketError("more than \(limit) bytes") }
        }
        defer { pending.removeAll() }
        return pending
    }

    /// Exactly `count` bytes; throws if the stream ends first.
    func read(exactly count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard try fill() else { throw RawSocketError("EOF after \(pending.count) of \(count) bytes") }
        }
        let result = Array(pending[0..<count])
        pending.removeFirst(count)
        return result
    }

    /// One line terminated by CRLF, without the CRLF.
    func readLine() throws -> [UInt8] {
        while true {
            if let index = crlfIndex() {
                let line = Array(pending[0..<index])
                pending.removeFirst(index + 2)
                return line
            }
            guard try fill() else { throw RawSocketError("EOF inside a line") }
        }
    }

    private func crlfIndex() -> Int? {
        guard pending.count >= 2 else { return nil }
        for i in 0..<(pending.count - 1) where pending[i] == 13 && pending[i + 1] == 10 { return i }
        return nil
    }

    /// Whether the peer has closed (EOF with nothing buffered).
    func isAtEOF() throws -> Bool {
        if !pending.isEmpty { return false }
        return try !fill()
    }

    /// Reads one response. `bodiless` for HEAD requests (and implied for 204/304).
    func readResponse(bodiless: Bool = false) throws -> RawResponse {
        var headBytes: [UInt8] = []
        let statusLine = try readLine()
        headBytes += statusLine + [13, 10]
        let statusText = String(decoding: statusLine, as: UTF8.self)
        let fields = statusText.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, let status = Int(fields[1]) else { throw RawSocketError("bad status line \(statusText)") }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            headBytes += line + [13, 10]
            if line.isEmpty { break }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { throw RawSocketError("bad header \(text)") }
            let value = text[text.index(after: colon)...].drop(while: { $0 == " " })
            headers.append((String(text[..<colon]), String(value)))
        }
        var response = RawResponse(status: status, statusLine: statusText, headers: headers, headBytes: headBytes, body: [])
        if bodiless || status == 204 || status == 304 || (100..<200).contains(status) { return response }
        if response.value("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let sizeLine = String(decoding: try readLine(), as: UTF8.self)
                guard let size = Int(sizeLine, radix: 16) else { throw RawSocketError("bad chunk size \(sizeLine)") }
                if size == 0 {
                    guard try readLine().isEmpty else { throw RawSocketError("trailers not expected") }
                    break
                }
                response.body += try read(exactly: size)
                guard try readLine().isEmpty else { throw RawSocketError("chunk not followed by CRLF") }
            }
        } else if let length = response.value("Content-Length").flatMap({ Int($0) }) {
            response.body = try read(exactly: length)
        } else {
            response.body = try readUntilClose()
        }
        return response
    }

    /// Sends a minimal request and reads its response.
    func request(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> RawResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        try send(Array(text.utf8) + body)
        return try readResponse(bodiless: method == "HEAD")
    }
}

/// Byte `i` of every generated body.
func patternBytes(count: Int, from offset: Int = 0) -> [UInt8] {
    (offset..<(offset + count)).map { UInt8($0 % 251) }
}
