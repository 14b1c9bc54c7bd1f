import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1
import SwitchyardCore
import SwitchyardTransportKit

/// Turns a Switchyard ``Request`` into an AsyncHTTPClient `HTTPClientRequest`.
///
/// Header fields are copied in order, repeats and name case kept. `Content-Length` and
/// `Transfer-Encoding` are derived from the body by AsyncHTTPClient (it replaces any the request
/// carries), exactly as the curl transport lets libcurl derive them.
enum AsyncHTTPClientRequestMapping {
    /// Builds the outgoing request.
    /// - Parameters:
    ///   - request: The Switchyard request.
    ///   - acceptEncoding: The `Accept-Encoding` to add when the request has none, or `nil` to add nothing.
    /// - Returns: The AsyncHTTPClient request.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` when the head has no scheme or authority.
    static func makeRequest(_ request: Request, acceptEncoding: String?) throws(SwitchyardError) -> HTTPClientRequest {
        let head = request.head
        guard let url = RequestTarget.absoluteURL(of: head) else {
            throw .invalidRequest(
                "The request has no scheme or host:"
                    + " give an absolute URL such as https://example.com/path.")
        }
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: head.method.rawValue)

        let addedAcceptEncoding = head.headerFields.containsField(named: .acceptEncoding) ? nil : acceptEncoding
        let count = head.headerFields.count + (addedAcceptEncoding == nil ? 0 : 1)
        if count > 0 {  // a request without fields allocates no header list
            var headers = HTTPHeaders()
            headers.reserveCapacity(count)
            for field in head.headerFields {
                headers.add(name: field.name.rawName, value: field.value)
            }
            if let addedAcceptEncoding { headers.add(name: "Accept-Encoding", value: addedAcceptEncoding) }
            outgoing.headers = headers
        }
        guard let body = request.body else { return outgoing }
        if let observer = request.options.sentBytesObserver {
            outgoing.body = makeCountedBody(body, declaredLength: head.headerFields[.contentLength], observer: observer)
        } else {
            outgoing.body = makeBody(body, declaredLength: head.headerFields[.contentLength])
        }
        return outgoing
    }

    /// A body whose sent bytes `observer` is told: streamed (an in-memory body in 64 KiB slices),
    /// each chunk counted once AsyncHTTPClient asks for the next one, which it does after writing
    /// it to the connection and only while the connection is writable.
    private static func makeCountedBody(
        _ body: HTTPBody, declaredLength: @autoclosure () -> String?, observer: SentBytesObserver
    ) -> HTTPClientRequest.Body {
        var length = HTTPClientRequest.Body.Length.unknown
        if case .known(let count) = body.length {
            length = .known(count)
        } else if let declared = declaredLength(), let count = Int64(declared), count >= 0 {
            length = .known(count)
        }
        return .stream(SentBytesCountingChunks(body: body, observer: observer), length: length)
    }

    /// In-memory bodies go as one buffer; streams are pulled chunk by chunk as AsyncHTTPClient asks for them.
    ///
    /// A stream of unknown length whose request declares `Content-Length` is sent with that length
    /// (like the curl transport does); otherwise it is sent chunked. The field is looked up only then.
    private static func makeBody(_ body: HTTPBody, declaredLength: @autoclosure () -> String?) -> HTTPClientRequest.Body {
        if let bytes = body.bufferedBytes {
            return .bytes(ByteBuffer(bytes: bytes))
        }
        let length: HTTPClientRequest.Body.Length
        switch body.length {
        case .known(let count):
            length = .known(count)
        case .unknown:
            if let declared = declaredLength(), let count = Int64(declared), count >= 0 {
                length = .known(count)
            } else {
                length = .unknown
            }
        }
        return .stream(ByteBufferChunks(body: body), length: length)
    }
}

/// The chunks of an ``HTTPBody`` as `ByteBuffer`s, empty chunks skipped.
private struct ByteBufferChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let body: HTTPBody

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator

        mutating func next() async throws -> ByteBuffer? {
            while let chunk = try await base.next() {
                if !chunk.isEmpty { return ByteBuffer(bytes: chunk) }
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: body.makeAsyncIterator()) }
}

/// The chunks of an ``HTTPBody`` as `ByteBuffer`s (in-memory bytes in 64 KiB slices), reporting
/// to a ``SentBytesObserver`` the bytes AsyncHTTPClient has written: a chunk counts once the next
/// one (or the end) is asked for.
private struct SentBytesCountingChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    static let sliceSize = 64 * 1024

    let body: HTTPBody
    let observer: SentBytesObserver

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator?
        var buffered: ArraySlice<UInt8>?
        let observer: SentBytesObserver
        var handedOut: Int64 = 0
        var reported: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            if handedOut != reported {
                reported = handedOut
                observer.sent(reported)
            }
            if var rest = buffered {
                guard !rest.isEmpty else { return nil }
                let slice = rest.prefix(SentBytesCountingChunks.sliceSize)
                rest = rest.dropFirst(slice.count)
                buffered = rest
                handedOut += Int64(slice.count)
                return ByteBuffer(bytes: slice)
            }
            while let chunk = try await base?.next() {
                guard !chunk.isEmpty else { continue }
                handedOut += Int64(chunk.count)
                return ByteBuffer(bytes: chunk)
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        let buffered = body.bufferedBytes
        return AsyncIterator(base: buffered == nil ? body.makeAsyncIterator() : nil, buffered: buffered, observer: observer)
    }
}
