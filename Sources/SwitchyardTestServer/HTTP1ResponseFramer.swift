import NIOCore
import NIOHTTP1

/// Lets a ``ConnectionHandler`` serve one HTTP/2 stream unchanged: it sits between
/// `HTTP2FramePayloadToHTTP1ServerCodec` and the handler, and turns the raw HTTP/1.1 response bytes
/// the handler writes back into response parts (head, body pieces, end) for the codec.
///
/// The bytes are framed as an HTTP/1.1 client would read them: `Content-Length`, `chunked`, or
/// until the handler closes (then the stream ends cleanly). Interim `1xx` responses are dropped,
/// and connection-specific fields (`Connection`, `Transfer-Encoding`, `Keep-Alive`) are removed
/// because HTTP/2 forbids them. A handler that resets its "connection" resets the stream instead.
/// Lives on its stream channel's event loop only.
final class HTTP1ResponseFramer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case head
        case length(Int)
        case untilClose
        case chunkSize
        case chunkData(Int)
        case chunkDataEnd
        case trailers
    }

    private static let headEnd: [UInt8] = Array("\r\n\r\n".utf8)
    private static let lineEnd: [UInt8] = Array("\r\n".utf8)
    private static let hopByHop: Set<String> = ["connection", "transfer-encoding", "keep-alive"]

    private var state = State.head
    private var pending = ByteBuffer()
    /// Whether each request read so far (and not yet answered) was a `HEAD`, oldest first.
    private var headRequests = CircularBuffer<Bool>()
    private var lastWrite: EventLoopFuture<Void>?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = Self.unwrapInboundIn(data) {
            headRequests.append(head.method == .HEAD)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var bytes = Self.unwrapOutboundIn(data)
        pending.writeBuffer(&bytes)
        var parts: [HTTPServerResponsePart] = []
        frame(into: &parts)
        guard let last = parts.popLast() else {
            if let lastWrite, let promise { lastWrite.cascade(to: promise) } else { promise?.succeed() }
            return
        }
        for part in parts { context.write(Self.wrapOutboundOut(part), promise: nil) }
        let future = context.write(Self.wrapOutboundOut(last))
        lastWrite = future
        if let promise { future.cascade(to: promise) }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if case .untilClose = state {
            // A close-delimited body: its end is the end of the stream.
            state = .head
            lastWrite = context.write(Self.wrapOutboundOut(.end(nil)))
        }
        context.flush()
        guard let lastWrite else {
            context.close(mode: mode, promise: promise)
            return
        }
        lastWrite.assumeIsolated().whenComplete { _ in
            context.close(mode: mode, promise: promise)
        }
    }

    // MARK: - Framing

    /// Turns as much of `pending` as is complete into parts.
    private func frame(into parts: inout [HTTPServerResponsePart]) {
        while true {
            switch state {
            case .head:
                guard let length = Self.offset(of: Self.headEnd, in: pending),
                    let text = pending.readString(length: length + Self.headEnd.count)
                else { return }
                guard let head = Self.parseHead(text) else { continue }
                if head.status.code < 200 { continue }  // interim response: HTTP/2 clients do not need it
                parts.append(.head(head))
                let isHead = headRequests.popFirst() ?? false
                let contentLength = head.headers.first(name: "content-length").flatMap { Int($0) }
                if isHead || head.status == .noContent || head.status == .notModified || contentLength == 0 {
                    parts.append(.end(nil))
                } else if text.lowercased().contains("\r\ntransfer-encoding: chunked") {
                    state = .chunkSize
                } else if let contentLength {
                    state = .length(contentLength)
                } else {
                    state = .untilClose
                }
            case .length(let remaining):
                guard pending.readableBytes > 0, let piece = pending.readSlice(length: min(remaining, pending.readableBytes))
                else { return }
                parts.append(.body(.byteBuffer(piece)))
                if remaining == piece.readableBytes {
                    parts.append(.end(nil))
                    state = .head
                } else {
                    state = .length(remaining - piece.readableBytes)
                }
            case .untilClose:
                guard pending.readableBytes > 0, let piece = pending.readSlice(length: pending.readableBytes) else { return }
                parts.append(.body(.byteBuffer(piece)))
            case .chunkSize:
                guard let line = readLine() else { return }
                let hex = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
                let size = Int(hex.trimmingCharacters(in: " \t"), radix: 16) ?? 0
                state = size == 0 ? .trailers : .chunkData(size)
            case .chunkData(let remaining):
                guard pending.readableBytes > 0, let piece = pending.readSlice(length: min(remaining, pending.readableBytes))
                else { return }
                parts.append(.body(.byteBuffer(piece)))
                state = remaining == piece.readableBytes ? .chunkDataEnd : .chunkData(remaining - piece.readableBytes)
            case .chunkDataEnd:
                guard pending.readableBytes >= 2 else { return }
                pending.moveReaderIndex(forwardBy: 2)
                state = .chunkSize
            case .trailers:
                guard let line = readLine() else { return }
                if line.isEmpty {
                    parts.append(.end(nil))
                    state = .head
                }
            }
        }
    }

    private func readLine() -> String? {
        guard let length = Self.offset(of: Self.lineEnd, in: pending), let line = pending.readString(length: length)
        else { return nil }
        pending.moveReaderIndex(forwardBy: Self.lineEnd.count)
        return line
    }

    private static func offset(of needle: [UInt8], in buffer: ByteBuffer) -> Int? {
        let view = buffer.readableBytesView
        guard let range = view.firstRange(of: needle) else { return nil }
        return view.distance(from: view.startIndex, to: range.lowerBound)
    }

    /// Parses `HTTP/1.1 200 OK\r\nName: value\r\n…\r\n\r\n` into a head without hop-by-hop fields.
    private static func parseHead(_ text: String) -> HTTPResponseHead? {
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).makeIterator()
        guard let statusLine = lines.next() else { return nil }
        let fields = statusLine.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, let code = Int(fields[1]) else { return nil }
        var headers = HTTPHeaders()
        while let line = lines.next() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: " \t")
            guard !hopByHop.contains(name.lowercased()) else { continue }
            headers.add(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: " \t"))
        }
        return HTTPResponseHead(version: .http1_1, status: .init(statusCode: code), headers: headers)
    }
}

extension StringProtocol {
    /// The string without leading and trailing characters from `set` (spaces and tabs here).
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
