import NIOCore

/// Complete `/small` responses, serialized once so the hot path is a single buffer write.
enum PrebuiltResponses {
    /// The `/small` body.
    static let smallBody = "hello, world\n"

    private static func small(head isHead: Bool, connection: String?) -> ByteBuffer {
        var buffer = ByteBuffer()
        ResponseHead(
            status: 200,
            headers: [
                ("Content-Type", "text/plain"), ("Content-Length", String(smallBody.utf8.count))
            ]
        ).write(into: &buffer, connection: connection)
        if !isHead { buffer.writeString(smallBody) }
        return buffer
    }

    private static let smallGet = small(head: false, connection: nil)
    private static let smallGetClose = small(head: false, connection: "close")
    private static let smallGetKeepAlive = small(head: false, connection: "keep-alive")
    private static let smallHead = small(head: true, connection: nil)
    private static let smallHeadClose = small(head: true, connection: "close")
    private static let smallHeadKeepAlive = small(head: true, connection: "keep-alive")

    /// The `/small` response for a GET (or HEAD) with the given `Connection` header value.
    static func small(isHead: Bool, connection: String?) -> ByteBuffer {
        switch (isHead, connection) {
        case (false, nil): smallGet
        case (false, "close"): smallGetClose
        case (false, _): smallGetKeepAlive
        case (true, nil): smallHead
        case (true, "close"): smallHeadClose
        case (true, _): smallHeadKeepAlive
        }
    }
}
