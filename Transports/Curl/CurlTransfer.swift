import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit

/// The state one transfer shares between the caller's task and the event-loop thread: the kit's
/// ``ResponseStream``, driven by libcurl's callbacks.
///
/// The event loop delivers the head (raw, parsed on the caller's task), body chunks and the final
/// outcome; the caller awaits the head and pulls chunks; either side may cancel. Back-pressure:
/// once ``CurlTransport/Configuration/receiveBufferBytes`` are buffered, a chunk is refused and
/// libcurl pauses the socket; the reader's pull that drains below a quarter of that unpauses it.
typealias CurlTransfer = ResponseStream<CurlTransferDriver>

/// What a curl transfer does when its stream decides something, and what the loop reads from it.
///
/// A class, not a struct: the stream, the loop and the easy handle each hold the transfer's request,
/// context and lines through one reference, so handing the driver around costs one retain instead of
/// one per reference it holds (about ten, with the request's).
final class CurlTransferDriver: ResponseStreamDriver {
    typealias Head = [UInt8]
    typealias Queue = ResponseChunks

    let request: Request
    let context: ExchangeContext
    let upload: CurlUploadPump?
    /// The URL and header lines, prepared for libcurl on the caller's task.
    let lines: CurlRequestLines
    let loop: CurlEventLoop
    /// Whether libcurl decodes the body, so the head must describe the decoded body.
    let decodesContentEncoding: Bool
    /// The easy handle carrying this transfer while it is in the multi handle, so the loop finds it
    /// for a cancel or an unpause without a table lookup. `nonisolated(unsafe)`: only the loop
    /// thread reads or writes it — set when the loop adds the handle, cleared when it removes it.
    nonisolated(unsafe) var easy: CurlEasyTransfer?

    var host: String { request.head.authority ?? "the server" }

    init(
        request: Request, context: ExchangeContext, upload: CurlUploadPump?, lines: CurlRequestLines, loop: CurlEventLoop,
        decodesContentEncoding: Bool
    ) {
        self.request = request
        self.context = context
        self.upload = upload
        self.lines = lines
        self.loop = loop
        self.decodesContentEncoding = decodesContentEncoding
    }

    /// The caller waits for the head: hand the transfer to the loop.
    func startReceiving(_ stream: CurlTransfer) { loop.submit(.start(stream)) }

    /// The reader drained the buffer: unpause the socket.
    func resumeReceiving(_ stream: CurlTransfer) { loop.submit(.unpause(stream)) }

    /// A failed exchange stops its upload's producer.
    func ended(_ stream: CurlTransfer, outcome: Result<Void, SwitchyardError>) {
        if case .failure(let error) = outcome { upload?.fail(error) }
    }

    /// The caller's side ended the transfer: the loop drops the handle on its next turn.
    func stopReceiving(_ stream: CurlTransfer) { loop.submit(.cancel(stream)) }
}

extension ResponseStream where Driver == CurlTransferDriver {
    /// What the event loop should tell libcurl about a body chunk.
    typealias ChunkDisposition = Offer

    /// A transfer for `request`, waiting to be handed to `loop` by ``start()``.
    convenience init(
        request: consuming Request, context: ExchangeContext, upload: CurlUploadPump?, loop: CurlEventLoop,
        highWaterBytes: Int, decodesContentEncoding: Bool
    ) {
        let lines = CurlRequestLines(request, decodesContentEncoding: decodesContentEncoding)
        let driver = CurlTransferDriver(
            request: request, context: context, upload: upload, lines: lines,
            loop: loop, decodesContentEncoding: decodesContentEncoding)
        self.init(
            driver: driver,
            state: State(
                queue: ResponseChunks(), highWaterBytes: highWaterBytes,
                overflow: .refuseAndPause))
    }

    // MARK: - Caller side

    /// The largest body handed out whole when the transfer already ended by the time its head is
    /// read (a small response, usually one chunk): larger ones stream as they were queued.
    static var wholeBodyLimit: Int { 64 * 1024 }

    /// Hands the transfer to the event loop, waits for the response head and parses it (here, on the
    /// caller's task, not on the loop thread).
    func start() async throws -> Response {
        try makeResponse(from: try await self.head())
    }

    /// The response for the head `block`: parsed, checked, with its body. Synchronous and never
    /// inlined, so the parse's temporaries stay out of the async frame of ``start()``.
    @inline(never)
    private func makeResponse(from block: [UInt8]) throws(SwitchyardError) -> Response {
        do throws(SwitchyardError) {
            let head = try CurlHeaderParser.parseHead(block)
            let declared = try ResponseHeadRules.validate(head, host: driver.host)
            var body: HTTPBody?
            if ResponseHeadRules.hasBody(method: driver.request.head.method, status: head.status) {
                if let whole = takeWholeBody(upTo: Self.wholeBodyLimit) {
                    body = HTTPBody(whole)
                } else {
                    body = HTTPBody(
                        streamingFrom: StreamedResponseBody(self), length: declared.map { HTTPBody.Length.known($0) } ?? .unknown)
                }
            }
            let response = Response(head, body: body)
            return driver.decodesContentEncoding
                ? try response.decodingContent(
                    limit: driver.request.options.maxResponseBytes, decoders: driver.request.options.contentDecoders)
                : response
        } catch {
            cancel(error)
            throw error
        }
    }

    // MARK: - Event-loop side

    /// Offers a body chunk (event-loop thread). `.pause` means the chunk was *not* taken.
    func deliverChunk(_ bytes: UnsafeRawBufferPointer) -> ChunkDisposition {
        offer(ArraySlice(bytes))
    }
}
