import Foundation

/// What the loopback server's `/echo` route saw: method, target, header fields in received
/// order and case, and the body's length and SHA-256.
public struct EchoReport: Sendable, Decodable {
    /// The request method.
    public let method: String
    /// The request target, e.g. `/echo?x=1`.
    public let uri: String
    /// Header fields as `[name, value]` pairs, in received order and case.
    public let headers: [[String]]
    /// Body bytes received.
    public let bodyLength: Int
    /// Lowercase hex SHA-256 of the body.
    public let bodySHA256: String

    private enum CodingKeys: String, CodingKey {
        case method, uri, headers
        case bodyLength = "body_length"
        case bodySHA256 = "body_sha256"
    }

    /// Decodes the route's JSON.
    /// - Parameter json: The response body of `/echo`.
    /// - Throws: ``ConformanceFailure`` if it is not the route's JSON.
    public init(json: [UInt8]) throws {
        do {
            self = try JSONDecoder().decode(EchoReport.self, from: Data(json))
        } catch {
            throw ConformanceFailure("/echo did not return its JSON: \(String(decoding: json.prefix(200), as: UTF8.self))")
        }
    }

    /// The values of every field named `name` (case-insensitively), in order.
    /// - Parameter name: The field name.
    /// - Returns: The values.
    public func values(of name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.count == 2 ? $0[1] : nil }
    }

    /// The field names in received order, exactly as sent.
    public var names: [String] { headers.compactMap(\.first) }
}
