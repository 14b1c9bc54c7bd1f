import NIOConcurrencyHelpers

/// The `/h2/{fault}/{key}/{n}` routes (HTTP/2 only): per key, which requests get a stream reset or a
/// `GOAWAY` instead of an answer, and what the server did with each one.
///
/// Two families, by whether the server could have acted on the request:
/// - **never processed** (`refuse`, `goaway`): the fault comes as soon as the request's `HEADERS`
///   arrive, before the body is read or anything is counted as processed; counted in
///   ``HTTP2FaultFigures/refused``;
/// - **processed** (`reset-after`, `goaway-after`): the whole request is read and counted in
///   ``HTTP2FaultFigures/processed`` first, then the fault replaces the response.
///
/// Once a key's first `n` requests have had their fault, later ones are processed and answered
/// 200 `ok {key} #{processed}\n`. Logic only; ``HTTP2FaultHandler`` does the framing.
final class HTTP2Faults: Sendable {
    /// A fault the route can inject.
    enum Fault: String, Sendable {
        /// `RST_STREAM(REFUSED_STREAM)` before the request is processed.
        case refuse
        /// `GOAWAY` whose last-stream-id is below the stream, then the connection closes; the request is not processed.
        case goaway
        /// The request is processed, then `RST_STREAM(INTERNAL_ERROR)` instead of a response.
        case resetAfter = "reset-after"
        /// The request is processed, then `GOAWAY` whose last-stream-id includes the stream, and the
        /// connection closes before a response.
        case goawayAfter = "goaway-after"

        /// Whether the fault strikes before the request is processed.
        var isBeforeProcessing: Bool { self == .refuse || self == .goaway }
    }

    /// A parsed `/h2/{fault}/{key}/{n}` path.
    struct Route: Sendable {
        let fault: Fault
        let key: String
        let count: Int
    }

    /// What to do with a request after ``arrived(_:)`` or ``processed(_:bodyBytes:)``.
    enum Step: Sendable, Equatable {
        /// Inject the route's fault.
        case fault
        /// Read the request to its end, then call ``processed(_:bodyBytes:)``.
        case process
        /// Answer 200 with this body.
        case answer(String)
    }

    private let figures = NIOLockedValueBox<[String: HTTP2FaultFigures]>([:])

    /// Parses `/h2/{fault}/{key}/{n}` (query excluded); `nil` for any other path.
    static func route(path: Substring) -> Route? {
        let parts = path.split(separator: "/")
        guard parts.count == 4, parts[0] == "h2", let fault = Fault(rawValue: String(parts[1])),
            let count = Int(parts[3]), count >= 0
        else { return nil }
        return Route(fault: fault, key: String(parts[2]), count: count)
    }

    /// Called when a request's head arrives.
    func arrived(_ route: Route) -> Step {
        guard route.fault.isBeforeProcessing else { return .process }
        return figures.withLockedValue { figures in
            guard figures[route.key, default: HTTP2FaultFigures()].refused < route.count else { return .process }
            figures[route.key, default: HTTP2FaultFigures()].refused += 1
            return .fault
        }
    }

    /// Called once the whole request has been read: counts it as processed.
    func processed(_ route: Route, bodyBytes: Int) -> Step {
        figures.withLockedValue { figures in
            var entry = figures[route.key, default: HTTP2FaultFigures()]
            entry.processed += 1
            entry.bodyLengths.append(bodyBytes)
            figures[route.key] = entry
            if !route.fault.isBeforeProcessing, entry.processed <= route.count { return .fault }
            return .answer("ok \(route.key) #\(entry.processed)\n")
        }
    }

    /// The figures for `key` so far.
    func figures(key: String) -> HTTP2FaultFigures {
        figures.withLockedValue { $0[key] ?? HTTP2FaultFigures() }
    }
}

/// What the server did with the requests for one key of the `/h2/{fault}/{key}/{n}` routes
/// (``LoopbackServer/http2Faults(key:)``).
public struct HTTP2FaultFigures: Sendable, Hashable {
    /// Requests read completely and acted on (answered, or faulted after processing by `reset-after`
    /// and `goaway-after`). A POST that was not retried twice by mistake shows `1` here.
    public var processed = 0
    /// Requests turned away before processing (`refuse`, `goaway`): their bodies were not read.
    public var refused = 0
    /// The body length of each processed request, in order.
    public var bodyLengths: [Int] = []

    /// Figures with nothing seen yet.
    public init() {}
}
