public import SwitchyardCore
public import SwitchyardJSON

/// The wrapper many APIs put around every payload, e.g. `{"code": 0, "msg": "ok", "data": …}`:
/// where the code and the message sit and which codes mean success.
///
/// ```swift
/// let envelope = Envelope(codePath: "code", messagePath: "msg", successCodes: [0])
/// ```
///
/// A response whose code is not a success code fails with `SwitchyardError.Kind.api`, carrying
/// the code and the server's message (`SwitchyardError.apiFailure`), never with a decoding error.
/// An absent code counts as success (the value is then decoded as usual).
public struct Envelope: Sendable, Hashable {
    /// Where the business code sits.
    public var codePath: JSONPath
    /// Where the server's message sits.
    public var messagePath: JSONPath
    /// The codes that mean success (numbers and strings compare as written: `0` ≠ `"0"`).
    public var successCodes: Set<JSONValue>

    /// Creates an envelope description.
    /// - Parameters:
    ///   - codePath: Where the code sits (default `code`).
    ///   - messagePath: Where the message sits (default `msg`).
    ///   - successCodes: Integer codes that mean success (default `[0]`).
    public init(codePath: JSONPath = "code", messagePath: JSONPath = "msg", successCodes: Set<Int64> = [0]) {
        self.init(codePath: codePath, messagePath: messagePath, successValues: Set(successCodes.map { JSONValue.integer($0) }))
    }

    /// Creates an envelope description whose success codes are any JSON values (e.g. `"OK"`).
    /// - Parameters:
    ///   - codePath: Where the code sits.
    ///   - messagePath: Where the message sits.
    ///   - successValues: The values that mean success.
    public init(codePath: JSONPath, messagePath: JSONPath, successValues: Set<JSONValue>) {
        self.codePath = codePath
        self.messagePath = messagePath
        self.successCodes = successValues
    }

    /// The failure the envelope reports, or `nil` for success (or no code).
    func failure(in decoder: any Decoder) throws -> APIFailure? {
        guard let code = try? PathDecoding.decode(JSONValue.self, at: codePath.segments[...], from: decoder),
            code != .null, !successCodes.contains(code)
        else { return nil }
        let message = try? PathDecoding.decode(JSONValue.self, at: messagePath.segments[...], from: decoder)
        let text: String?
        switch message {
        case .string(let value)?: text = value
        case .null?, nil: text = nil
        case let value?: text = value.description
        }
        return APIFailure(code: code, serverMessage: text)
    }
}

/// A business failure an API reported inside a successful HTTP response.
public struct APIFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code, as the server sent it.
    public let code: JSONValue
    /// The server's message, if it sent one (server text: show it only if you trust it).
    public let serverMessage: String?

    /// Creates a failure.
    /// - Parameters:
    ///   - code: The code.
    ///   - serverMessage: The server's message.
    public init(code: JSONValue, serverMessage: String?) {
        self.code = code
        self.serverMessage = serverMessage
    }

    /// `code 1001: "token expired"`.
    public var description: String {
        "code \(code)" + (serverMessage.map { ": " + JSONValue.string($0).description } ?? "")
    }
}

extension SwitchyardError.Kind {
    /// The API reported a business failure in its envelope (see ``Envelope``).
    public static let api = Self(rawValue: "api")
    /// The response's content type is not one the endpoint accepts (an HTML error page instead of JSON).
    public static let unexpectedContentType = Self(rawValue: "unexpectedContentType")
    /// The call succeeded but carried no value (204, an empty body, `null` or an empty list at the
    /// key path); thrown only by accessors that must return a value, such as ``CallHandle/value``.
    public static let noData = Self(rawValue: "noData")
}

extension SwitchyardError {
    /// A business failure reported by the API's envelope.
    /// - Parameter failure: The code and message.
    /// - Returns: The error, of kind ``Kind/api``.
    public static func api(_ failure: APIFailure) -> Self {
        Self(.api, "The API reported a failure: \(failure)", underlyingError: failure)
    }

    /// The code and message of an ``Kind/api`` error.
    public var apiFailure: APIFailure? { underlyingError as? APIFailure }
}
