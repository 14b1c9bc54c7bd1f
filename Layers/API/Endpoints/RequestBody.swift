import SwitchyardCore
import SwitchyardJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How an endpoint's request body is encoded.
///
/// ```swift
/// .json(NewUser(name: "Ada"))
/// .form([QueryItem("user", "ada"), QueryItem("remember", "1")])
/// .multipart(MultipartForm(parts: [.field("title", "Cat"), .fileAtPath("photo", filename: "cat.jpg", contentType: "image/jpeg", path: path)]))
/// .bytes(data, contentType: "application/octet-stream")
/// ```
public enum RequestBody: Sendable {
    /// No body.
    case none
    /// A JSON document encoded from `value` (`Content-Type: application/json`).
    case json(any Encodable & Sendable)
    /// `application/x-www-form-urlencoded` fields.
    case form([QueryItem])
    /// A `multipart/form-data` body, streamed (files are read from disk as they are sent).
    case multipart(MultipartForm)
    /// Raw bytes with their content type.
    case bytes([UInt8], contentType: String)

    /// The encoded bytes and the `Content-Type` to send, or `nil` for no body.
    /// - Parameters:
    ///   - encoder: Makes the JSON encoder.
    ///   - extraFields: JSON members added to a JSON object body (scope defaults); ignored otherwise.
    func encoded(encoder: @Sendable () -> JSONEncoder, extraFields: [String: JSONValue]) throws(SwitchyardError)
        -> (bytes: [UInt8], contentType: String)?
    {
        switch self {
        case .none:
            return nil
        case .json(let value):
            do {
                var bytes = Array(try encoder().encode(value))
                if !extraFields.isEmpty {
                    guard case .object(var members) = try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
                        throw SwitchyardError.invalidRequest(
                            "Default body fields need a JSON object body; this endpoint's body is not an object.")
                    }
                    for (name, value) in extraFields where members[name] == nil { members[name] = value }
                    bytes = Array(try encoder().encode(JSONValue.object(members)))
                }
                return (bytes, "application/json")
            } catch let error as SwitchyardError {
                throw error
            } catch {
                throw .invalidRequest("The request body could not be encoded as JSON: \(error)")
            }
        case .form(let fields):
            return (Array(PercentEncoding.query(fields).utf8), "application/x-www-form-urlencoded")
        case .multipart(let form):
            return (try form.encoded(), form.contentType)
        case .bytes(let bytes, let contentType):
            return (bytes, contentType)
        }
    }
}
