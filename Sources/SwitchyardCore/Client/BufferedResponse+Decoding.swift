import HTTPTypes

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension BufferedResponse {
    /// The body decoded as JSON into `type`.
    ///
    /// ```swift
    /// let user = try await client.send(Request(url: "https://api.example.com/users/42")).decode(User.self)
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder (its date and key strategies apply).
    /// - Returns: The value.
    /// - Throws: ``SwitchyardError/Kind/decoding`` naming the type, with the decoder's error as
    ///   its underlying error, and the response head attached.
    public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder())
        throws(SwitchyardError) -> Value
    {
        do {
            return try decoder.decode(type, from: Data(body))
        } catch {
            var failure = SwitchyardError.decoding(
                "The \(head.status.code) response's body is not a \(type) (\(body.count) bytes): \(error)",
                underlyingError: error)
            failure.response = head
            throw failure
        }
    }
}
