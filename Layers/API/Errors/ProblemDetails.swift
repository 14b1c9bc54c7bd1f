public import SwitchyardJSON

/// An RFC 9457 problem document (`application/problem+json`): what a server says about a failure.
///
/// ```swift
/// catch let error as SwitchyardError {
///     if let problem = error.problem { show(problem.title ?? "Error", problem.detail) }
/// }
/// ```
///
/// Members of the wrong type are ignored, as RFC 9457 §3.1 asks; members beyond the five standard
/// ones are kept in ``extensions``.
public struct ProblemDetails: Sendable, Hashable, Decodable {
    /// A URI naming the problem type (`about:blank` when absent).
    public var type: String
    /// A short summary of the problem type.
    public var title: String?
    /// The HTTP status the server gave for this occurrence.
    public var status: Int?
    /// An explanation of this occurrence, for the person using the app.
    public var detail: String?
    /// A URI naming this occurrence.
    public var instance: String?
    /// Every other member (e.g. `errors`, `balance`).
    public var extensions: JSONObject

    /// Creates a problem document.
    /// - Parameters:
    ///   - type: The problem type's URI.
    ///   - title: Its summary.
    ///   - status: The HTTP status.
    ///   - detail: This occurrence's explanation.
    ///   - instance: This occurrence's URI.
    ///   - extensions: Other members.
    public init(
        type: String = "about:blank", title: String? = nil, status: Int? = nil, detail: String? = nil, instance: String? = nil,
        extensions: JSONObject = [:]
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.extensions = extensions
    }

    /// Decodes the document's object, ignoring standard members of the wrong type.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the document is not a JSON object.
    public init(from decoder: any Decoder) throws {
        guard case .object(let members) = try JSONValue(from: decoder) else {
            throw DecodingError.typeMismatch(
                ProblemDetails.self, .init(codingPath: decoder.codingPath, debugDescription: "A problem document is a JSON object."))
        }
        func string(_ key: String) -> String? {
            if case .string(let value)? = members[key] { return value }
            return nil
        }
        type = string("type") ?? "about:blank"
        title = string("title")
        detail = string("detail")
        instance = string("instance")
        switch members["status"] {
        case .integer(let code)?: status = Int(exactly: code)
        case .number(let number)?: status = Int(exactly: number)
        default: status = nil
        }
        let standard: Set<String> = ["type", "title", "status", "detail", "instance"]
        extensions = JSONObject(members.filter { !standard.contains($0.key) }.map { ($0.key, $0.value) })
    }
}
