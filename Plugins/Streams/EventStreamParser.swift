public import SwitchyardCore

/// The event-stream interpretation of the WHATWG HTML standard (§9.2.6), fed bytes as they arrive.
///
/// Lines end with CR, LF or CRLF (a CR at the end of one chunk and an LF at the start of the next are
/// one line end); a byte order mark at the start of a stream is skipped; `data` lines are joined with
/// line feeds; `event` sets the type; `id` sets the last event ID unless it contains NUL; `retry`
/// with only digits sets the reconnection time; lines starting with `:` are comments; a blank line
/// dispatches. Memory is bounded: an event whose data and current line exceed ``maximumEventBytes``
/// is an error.
public struct EventStreamParser: Sendable {
    /// The most bytes one event (its field lines, before dispatch) may take.
    public let maximumEventBytes: Int
    /// The last event ID of the stream: the `id:` in force at the last blank line (persists across
    /// events and connections), or `nil` before any. An `id:` of an event cut off by the end of a
    /// connection does not count: reconnecting resumes after the last whole event.
    public private(set) var lastEventID: String?
    /// The `id:` read since the last blank line, committed to ``lastEventID`` at the next one.
    private var pendingID: String?
    /// The reconnection time the server asked for with `retry:`, in milliseconds.
    public private(set) var retryMilliseconds: Int?

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: [UInt8] = []
    private var lastWasCR = false
    private var atStreamStart = true

    /// Creates a parser.
    /// - Parameter maximumEventBytes: The bound on one event's bytes (default 1 MiB).
    public init(maximumEventBytes: Int = 1 << 20) {
        self.maximumEventBytes = maximumEventBytes
    }

    /// Starts a new connection's stream: a partly received event is dropped (the standard discards an
    /// event that did not end with a blank line), the last event ID and retry time are kept.
    public mutating func startStream() {
        line.removeAll(keepingCapacity: true)
        resetEvent()
        pendingID = lastEventID
        lastWasCR = false
        atStreamStart = true
    }

    /// Feeds bytes; returns the events they complete, in order.
    /// - Parameter bytes: The next bytes of the stream.
    /// - Returns: The dispatched events.
    /// - Throws: ``SwitchyardCore/SwitchyardError/Kind/eventTooLarge`` when an event passes ``maximumEventBytes``.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(SwitchyardError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var bytes = bytes[...]
        if atStreamStart {
            // The UTF-8 byte order mark, only at the very start of the stream.
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            let seen = line + bytes.prefix(3 - line.count)
            if seen.count < 3, bom.starts(with: seen) {
                line = Array(seen)
                return events
            }
            atStreamStart = false
            if seen.starts(with: bom) {
                bytes = bytes.dropFirst(3 - line.count)
                line.removeAll()
            } else if !line.isEmpty {
                // Bytes held back while deciding were not a BOM: they start the first line.
                let held = line
                line.removeAll()
                try feedLines(held[...], into: &events)
            }
        }
        try feedLines(bytes, into: &events)
        return events
    }

    private mutating func feedLines(_ bytes: some Collection<UInt8>, into events: inout [ServerSentEvent]) throws(SwitchyardError) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"):
                if lastWasCR {
                    lastWasCR = false
                    continue
                }
                try endLine(into: &events)
            case UInt8(ascii: "\r"):
                try endLine(into: &events)
                lastWasCR = true
            default:
                lastWasCR = false
                line.append(byte)
                // The event's data so far and the line being read: comments and other fields do not add up.
                if line.count + data.count > maximumEventBytes { throw .eventTooLarge(limit: maximumEventBytes) }
            }
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) throws(SwitchyardError) {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            if let event = dispatch() { events.append(event) }
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = line[..<(colon ?? line.endIndex)]
        var value = colon.map { line[line.index(after: $0)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = Array(value)
        case "data":
            if hasData { data.append(UInt8(ascii: "\n")) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { pendingID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                retryMilliseconds = Int(String(decoding: value, as: UTF8.self)) ?? Int.max
            }
        default:
            break
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer { resetEvent() }
        lastEventID = pendingID
        guard hasData else { return nil }
        let type = eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self)
        return ServerSentEvent(type: type, data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID)
    }

    private mutating func resetEvent() {
        data.removeAll(keepingCapacity: true)
        hasData = false
        eventType.removeAll(keepingCapacity: true)
    }
}
