public import SwitchyardCore

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// How response bodies become models: a `JSONDecoder` configuration, and decoding at a JSON path.
///
/// ```swift
/// let list = try JSONDecoding.standard.decode([Item].self, from: body, at: "data.list")
/// ```
///
/// Decoding goes through the decoder's own containers straight to the path: no wrapper structs
/// and no second parse. A failure is a `SwitchyardError.Kind.decoding` error whose message
/// names the JSON path and what was found there (`data.list[3].id: expected a string, found null`).
public struct JSONDecoding: Sendable {
    /// Makes the decoder for one body (a new one each time, so settings never race).
    public var makeDecoder: @Sendable () -> JSONDecoder

    /// Plain `JSONDecoder()` settings.
    public static let standard = JSONDecoding { JSONDecoder() }

    /// Creates a configuration.
    /// - Parameter makeDecoder: Returns a configured decoder (date and key strategies …).
    public init(makeDecoder: @escaping @Sendable () -> JSONDecoder) {
        self.makeDecoder = makeDecoder
    }

    /// The value at `path` of the JSON document `body`, or `nil` when the path holds `null`.
    /// - Parameters:
    ///   - type: The model type.
    ///   - body: The JSON document.
    ///   - path: Where the model sits (`""` for the whole document).
    /// - Returns: The model, or `nil` for `null`.
    /// - Throws: `SwitchyardError.Kind.decoding` naming the path.
    public func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], at path: JSONPath = JSONPath(segments: []))
        throws(SwitchyardError) -> T?
    {
        try decodeRoot(T.self, from: body, plan: DecodingPlan(path: path, envelope: nil)).value
    }

    /// Decodes by `plan` in one pass: the envelope's code and message, then the value.
    func decodeRoot<T: Decodable>(_ type: T.Type, from body: [UInt8], plan: DecodingPlan) throws(SwitchyardError) -> DecodedRoot<T> {
        let decoder = makeDecoder()
        decoder.userInfo[DecodingPlan.userInfoKey] = plan
        do {
            return try decoder.decode(DecodedRoot<T>.self, from: Data(body))
        } catch {
            throw DecodingFailure.error(error, body: body, model: T.self)
        }
    }
}

/// What one decoding pass reads: an optional envelope, and the value's path.
struct DecodingPlan: Sendable {
    static let userInfoKey = CodingUserInfoKey(rawValue: "switchyard.decodingPlan")!  // a constant, valid key

    var path: JSONPath
    var envelope: Envelope?
    /// For pages: where the page's parts sit (``PageRoot``).
    var page: JSONPageLayout? = nil
    /// For pages: whether an item that fails to decode is left out (and reported) rather than failing the page.
    var skipsInvalidItems = false
}

/// The root of a decoding pass: reads the envelope (if any) and the value at the plan's path.
struct DecodedRoot<T: Decodable>: Decodable {
    /// The value, `nil` when the path held `null` or the envelope reported a failure.
    var value: T?
    /// The envelope's verdict when it reported a business failure.
    var failure: APIFailure?

    init(from decoder: any Decoder) throws {
        guard let plan = decoder.userInfo[DecodingPlan.userInfoKey] as? DecodingPlan else {
            value = try T?(from: decoder)
            return
        }
        if let envelope = plan.envelope, let failure = try envelope.failure(in: decoder) {
            self.failure = failure
            return
        }
        // `null` at the path is no value; a `[*]` path always collects an array.
        value =
            plan.path.hasWildcard
            ? try PathDecoding.decode(T.self, at: plan.path.segments[...], from: decoder)
            : try PathDecoding.decode(T?.self, at: plan.path.segments[...], from: decoder)
    }
}
