public import Switchyard

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// How an endpoint's request body is encoded.
///
/// ```swift
/// .json(NewUser(name: "Ada"))
/// .form([QueryItem("user", "ada"), QueryItem("remember", "1")])
/// .multipart(MultipartForm(parts: [.field("title", "Cat"), .file("photo", filename: "cat.jpg", contentType: "image/jpeg", bytes)]))
/// .bytes(data, contentType: "application/octet-stream")
/// ```
public enum RequestBody: Sendable {
    /// No body.
    case none
    /// A JSON document encoded from `value` (`Content-Type: application/json`).
    case json(any Encodable & Sendable)
    /// `application/x-www-form-urlencoded` fields.
    case form([QueryItem])
    /// A `multipart/form-data` body.
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
            return (form.encoded(), "multipart/form-data; boundary=\(form.boundary)")
        case .bytes(let bytes, let contentType):
            return (bytes, contentType)
        }
    }
}

/// A `multipart/form-data` body: text fields and files.
public struct MultipartForm: Sendable {
    /// One part.
    public enum Part: Sendable {
        /// A text field.
        case field(String, String)
        /// A file: field name, file name, content type and bytes.
        case file(String, filename: String, contentType: String, bytes: [UInt8])
    }

    /// The parts, in order.
    public var parts: [Part]
    /// The boundary between parts (96 random bits by default).
    public var boundary: String

    /// Creates a form.
    /// - Parameters:
    ///   - parts: The parts.
    ///   - boundary: The boundary; random when `nil`.
    public init(parts: [Part], boundary: String? = nil) {
        self.parts = parts
        self.boundary = boundary ?? "switchyard-" + (0..<24).map { _ in String("0123456789abcdef".randomElement() ?? "0") }.joined()
    }

    /// The body bytes.
    func encoded() -> [UInt8] {
        var body: [UInt8] = []
        func line(_ text: String) { body += Array(text.utf8) + [13, 10] }
        for part in parts {
            line("--" + boundary)
            switch part {
            case .field(let name, let value):
                line("Content-Disposition: form-data; name=\"\(Self.quoted(name))\"")
                line("")
                body += Array(value.utf8)
            case .file(let name, let filename, let contentType, let bytes):
                line("Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(filename))\"")
                line("Content-Type: " + contentType)
                line("")
                body += bytes
            }
            body += [13, 10]
        }
        line("--" + boundary + "--")
        return body
    }

    /// A name safe inside a quoted header parameter: quotes, CR and LF percent-encoded.
    private static func quoted(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.append(character)
            }
        }
        return result
    }
}
