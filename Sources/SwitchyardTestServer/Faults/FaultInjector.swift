import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Synchronization

/// Applies a ``FaultPlan`` to the requests of one server: draws each request's fault, runs the
/// bursts of `503`s, counts what it injected, and turns a fault into the action that produces it.
final class FaultInjector: Sendable {
    let plan: FaultPlan
    private let burstRemaining = NIOLockedValueBox<Int>(0)
    private let counts = NIOLockedValueBox<[FaultPlan.Fault: Int]>([:])
    private let sequence = Atomic<Int>(0)

    init(plan: FaultPlan) {
        self.plan = plan
    }

    /// Faults injected so far, by kind.
    var injected: [FaultPlan.Fault: Int] { counts.withLockedValue { $0 } }

    /// What to do instead of `routed` for `request`, or `routed` itself when the request draws no fault.
    /// - Parameters:
    ///   - request: The request.
    ///   - routed: The route's answer.
    ///   - soakArrival: For `/soak/{id}`, which arrival of the id this is (the decision's key); `nil`
    ///     elsewhere (keyed by the server-wide order of arrival).
    func action(for request: IncomingRequest, routed: RouteAction, soakArrival: Int?) -> RouteAction {
        let inBurst = burstRemaining.withLockedValue { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        let fault: FaultPlan.Fault?
        if inBurst {
            fault = .burst
        } else if let soakArrival {
            fault = plan.draw(key: request.head.uri, arrival: soakArrival)
        } else {
            fault = plan.draw(key: "", arrival: sequence.add(1, ordering: .relaxed).newValue)
        }
        guard let fault else { return routed }
        if fault == .burst, !inBurst {
            let more = plan.burstLength - 1
            burstRemaining.withLockedValue { $0 = max($0, more) }
        }
        counts.withLockedValue { $0[fault, default: 0] += 1 }
        return Self.action(for: fault, routed: routed)
    }

    /// The action that produces `fault`; truncations and resets in the middle of a body cut the
    /// route's own response when it is a buffered one with a body.
    static func action(for fault: FaultPlan.Fault, routed: RouteAction) -> RouteAction {
        var response: (head: ResponseHead, body: ByteBuffer)?
        if case .respond(let head, let body) = routed, body.readableBytes > 0 { response = (head, body) }
        switch fault {
        case .resetBeforeResponse:
            return .reset(bytesBeforeReset: nil)
        case .stall:
            return .stall
        case .burst:
            return .text(503, "fault: burst\n")
        case .malformedStatusLine:
            return .raw(MalformedResponses.statusLine)
        case .malformedChunkSize:
            return .raw(MalformedResponses.badChunk)
        case .resetMidBody:
            guard let response else { return .reset(bytesBeforeReset: 1000) }
            return .resetAfter(firstHalf(of: response, head: response.head))
        case .truncatedLength:
            guard let response else { return .raw(MalformedResponses.truncatedLength) }
            return .raw(firstHalf(of: response, head: response.head))
        case .truncatedChunked:
            guard let response else { return .raw(MalformedResponses.truncatedChunked) }
            var head = response.head
            head.headers.removeAll { $0.name.lowercased() == "content-length" }
            head.add("Transfer-Encoding", "chunked")
            var buffer = ByteBuffer()
            head.write(into: &buffer, connection: nil)
            let half = response.body.readableBytes / 2
            if half > 0, let slice = response.body.getSlice(at: response.body.readerIndex, length: half) {
                buffer.writeString(String(half, radix: 16) + "\r\n")
                buffer.writeImmutableBuffer(slice)
                buffer.writeStaticString("\r\n")
            }
            return .raw(buffer)
        }
    }

    /// `head` (with the route's `Content-Length`) followed by the first half of the body.
    private static func firstHalf(of response: (head: ResponseHead, body: ByteBuffer), head: ResponseHead) -> ByteBuffer {
        var buffer = ByteBuffer()
        head.write(into: &buffer, connection: nil)
        let half = response.body.readableBytes / 2
        if let slice = response.body.getSlice(at: response.body.readerIndex, length: half) {
            buffer.writeImmutableBuffer(slice)
        }
        return buffer
    }
}
