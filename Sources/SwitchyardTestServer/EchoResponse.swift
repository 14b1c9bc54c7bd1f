import NIOHTTP1
import SwitchyardJSON

/// Builds the JSON document `/echo` returns.
enum EchoResponse {
    /// `{"method":…,"uri":…,"version":…,"headers":[[name,value],…],"body_length":N,"body_sha256":"hex"}`
    /// with headers in received order, original case, repeated headers as separate pairs.
    static func json(for request: IncomingRequest) -> String {
        let head = request.head
        let document: JSONValue = .object([
            "method": .string(head.method.rawValue),
            "uri": .string(head.uri),
            "version": .string("HTTP/\(head.version.major).\(head.version.minor)"),
            "headers": .array(head.headers.map { .array([.string($0.name), .string($0.value)]) }),
            "body_length": .integer(Int64(request.bodyLength)),
            "body_sha256": .string(request.bodyDigest())
        ])
        return document.description
    }
}
