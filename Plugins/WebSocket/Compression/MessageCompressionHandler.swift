import NIOCore
import NIOWebSocket

/// Between the frame codec and the message aggregator: inflates the frames of compressed messages
/// and compresses outgoing messages when permessage-deflate was agreed, and refuses the reserved
/// bits (RSV1–3) where no extension gave them a meaning (RFC 6455 §5.2).
final class MessageCompressionHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// A frame the connection cannot accept.
    enum ProtocolError: Error {
        case reservedBitSet
    }

    private let agreement: DeflateAgreement?
    private let minimumMessageBytes: Int
    private let maximumMessageBytes: Int
    private let inflater: MessageDeflate?
    private let deflater: MessageDeflate?
    /// Inflated bytes of the current message, across its fragments (bounded by `maximumMessageBytes`).
    private var inflatedSoFar = 0
    private var inCompressedMessage = false

    init(agreement: DeflateAgreement?, settings: WebSocketCompression?, maximumMessageBytes: Int) {
        self.agreement = agreement
        self.minimumMessageBytes = settings?.minimumMessageBytes ?? 0
        self.maximumMessageBytes = maximumMessageBytes
        inflater = agreement == nil ? nil : MessageDeflate(.decompress)
        // zlib has no raw 256-byte window; with client_max_window_bits=8 messages go out uncompressed, as RFC 7692 allows.
        deflater = agreement.flatMap { $0.clientWindowBits >= 9 ? MessageDeflate(.compress(windowBits: Int32($0.clientWindowBits))) : nil }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var frame = unwrapInboundIn(data)
        guard !frame.rsv2, !frame.rsv3 else { return context.fireErrorCaught(ProtocolError.reservedBitSet) }
        switch frame.opcode {
        case .text, .binary:
            inCompressedMessage = frame.rsv1
            inflatedSoFar = 0
        case .continuation:
            guard !frame.rsv1 else { return context.fireErrorCaught(ProtocolError.reservedBitSet) }
        default:
            // Control frames are never compressed.
            guard !frame.rsv1 else { return context.fireErrorCaught(ProtocolError.reservedBitSet) }
            return context.fireChannelRead(data)
        }
        guard inCompressedMessage else { return context.fireChannelRead(data) }
        guard let inflater else { return context.fireErrorCaught(ProtocolError.reservedBitSet) }
        var output = context.channel.allocator.buffer(capacity: 0)
        do {
            try inflater.decompress(
                frame.unmaskedData, final: frame.fin, into: &output, limit: maximumMessageBytes - inflatedSoFar)
        } catch {
            return context.fireErrorCaught(error)
        }
        inflatedSoFar += output.readableBytes
        if frame.fin, agreement?.serverNoContextTakeover == true { inflater.reset() }
        frame.rsv1 = false
        frame.maskKey = nil
        frame.data = output
        context.fireChannelRead(wrapInboundOut(frame))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var frame = unwrapOutboundIn(data)
        guard let deflater, frame.fin, frame.opcode == .text || frame.opcode == .binary,
            frame.data.readableBytes >= minimumMessageBytes
        else { return context.write(data, promise: promise) }
        frame.data = deflater.compress(frame.data, allocator: context.channel.allocator)
        frame.rsv1 = true
        if agreement?.clientNoContextTakeover == true { deflater.reset() }
        context.write(wrapOutboundOut(frame), promise: promise)
    }
}
