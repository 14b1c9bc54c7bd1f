import HTTPTypes
public import SwitchyardCore
import SwitchyardJSON

/// How an endpoint turns a response body into its value, and which bodies mean "no data".
///
/// ```swift
/// Endpoint<[Book]>(.get, "/books", at: "data.list")                       // JSON at a path
/// Endpoint<String>(.get, "/motd", decoding: .text)                           // UTF-8 text
/// Endpoint<NoContent>(.delete, "/books/{id}", decoding: .ignoringBody)       // success without a value
/// ```
public struct ResponseDecoding<Value: Sendable>: Sendable {
    /// Decodes a body (never empty); `nil` means the response carries no data.
    let decode: @Sendable (_ body: [UInt8], _ envelope: Envelope?) throws(SwitchyardError) -> Value?
    /// Whether an empty body (or 204) is a success with a value rather than "no data".
    let emptyBodyValue: (@Sendable () -> Value)?
    /// The content types this decoding expects by default.
    let defaultAccepts: MediaTypeSet

    /// Creates a decoding from a function.
    /// - Parameters:
    ///   - accepts: The content types it expects.
    ///   - decode: Turns a non-empty body into a value, or `nil` for "no data".
    public init(accepts: MediaTypeSet, decode: @escaping @Sendable (_ body: [UInt8]) throws(SwitchyardError) -> Value?) {
        self.decode = { body, _ throws(SwitchyardError) in try decode(body) }
        self.emptyBodyValue = nil
        self.defaultAccepts = accepts
    }

    init(
        accepts: MediaTypeSet, emptyBodyValue: (@Sendable () -> Value)?,
        decode: @escaping @Sendable (_ body: [UInt8], _ envelope: Envelope?) throws(SwitchyardError) -> Value?
    ) {
        self.decode = decode
        self.emptyBodyValue = emptyBodyValue
        self.defaultAccepts = accepts
    }

    /// JSON at `path`; `null` there (or nothing at all) is "no data", while an empty array or
    /// object is a value like any other (see ``treatingEmptyAsNoData()`` for screens that want otherwise).
    /// - Parameters:
    ///   - path: Where the value sits.
    ///   - decoding: The decoder settings.
    /// - Returns: The decoding.
    public static func json(at path: JSONPath, using decoding: JSONDecoding = .standard) -> Self where Value: Decodable {
        Self(accepts: .json, emptyBodyValue: nil) { body, envelope throws(SwitchyardError) in
            let root = try decoding.decodeRoot(Value.self, from: body, plan: DecodingPlan(path: path, envelope: envelope))
            if let failure = root.failure { throw .api(failure) }
            guard let value = root.value else { return nil }
            if let json = value as? JSONValue, json == .null { return nil }
            return value
        }
    }

    /// A JSON list at `path` whose elements that fail to decode are left out (and listed in the
    /// call's ``DecodingReport``) when `skippingInvalidElements`; `null` there is "no data".
    /// - Parameters:
    ///   - path: Where the list sits.
    ///   - decoding: The decoder settings.
    ///   - skippingInvalidElements: Whether a bad element is skipped rather than failing the list.
    /// - Returns: The decoding.
    public static func json<Element: Decodable & Sendable>(
        at path: JSONPath, using decoding: JSONDecoding = .standard, skippingInvalidElements: Bool
    ) -> Self where Value == [Element] {
        guard skippingInvalidElements else { return json(at: path, using: decoding) }
        return Self(accepts: .json, emptyBodyValue: nil) { body, envelope throws(SwitchyardError) in
            let root = try decoding.decodeRoot(
                LossyElements<Element>.self, from: body, plan: DecodingPlan(path: path, envelope: envelope))
            if let failure = root.failure { throw .api(failure) }
            return root.value?.elements
        }
    }

    /// This decoding, with an empty collection (`[]`, `{}`, an empty string) also meaning "no data".
    /// - Returns: The decoding.
    public func treatingEmptyAsNoData() -> Self {
        let decode = self.decode
        return Self(accepts: defaultAccepts, emptyBodyValue: emptyBodyValue) { body, envelope throws(SwitchyardError) in
            guard let value = try decode(body, envelope) else { return nil }
            if let collection = value as? any Collection, collection.isEmpty { return nil }
            if let json = value as? JSONValue, json.isEmptyValue { return nil }
            return value
        }
    }
}

extension ResponseDecoding where Value == String {
    /// The body as UTF-8 text (invalid bytes become U+FFFD); any content type.
    public static var text: Self {
        Self(accepts: .any) { body throws(SwitchyardError) in String(decoding: body, as: UTF8.self) }
    }
}

extension ResponseDecoding where Value == [UInt8] {
    /// The body's bytes; any content type.
    public static var bytes: Self {
        Self(accepts: .any) { body throws(SwitchyardError) in body }
    }
}

/// The value of a call that succeeds without one (a `DELETE` answered with 204).
public struct NoContent: Sendable, Hashable, Decodable {
    /// The empty value.
    public init() {}
}

extension ResponseDecoding where Value == NoContent {
    /// Ignores the body: any successful response, empty or not, succeeds with ``NoContent``.
    public static var ignoringBody: Self {
        Self(accepts: .any, emptyBodyValue: { NoContent() }) { _, _ throws(SwitchyardError) in NoContent() }
    }
}
