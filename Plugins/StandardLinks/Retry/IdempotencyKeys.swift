public import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Automatic `Idempotency-Key` fields (IETF draft-ietf-httpapi-idempotency-key-header) for requests
/// that are not safe to repeat, so that the retry link may repeat them: the server recognises the
/// key and does not act twice.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.retry?.idempotencyKeys = .automatic   // POST and PATCH get a key, and are retried
/// ```
///
/// - A request whose method is in ``methods`` (POST and PATCH by default) and that has no
///   `Idempotency-Key` of its own gets one, made once per call by ``makeKey``; every attempt and
///   every redirect hop of the call sends the same key. A key the app set is kept as it is.
/// - With the key, the built-in policy treats the request as safe to repeat (``RetryPolicy/allowsRepeating(_:)``).
///   A single-use streamed body is still never sent twice.
/// - Use it only with servers that honour the field: to one that ignores it, a retried POST is a
///   duplicated POST.
public struct IdempotencyKeys: Sendable {
    /// The methods that get a key by default: POST and PATCH (GET, PUT, DELETE and the other
    /// idempotent methods need none).
    public static let defaultMethods: Set<HTTPRequest.Method> = [.post, .patch]

    /// The draft's form of a key: a UUID as a Structured Field string, e.g.
    /// `"8e03978e-40d5-43e8-bc93-6894a57f9324"` (with the quotes).
    /// - Returns: A new random key.
    public static func structuredUUID() -> String {
        "\"" + UUID().uuidString.lowercased() + "\""
    }

    /// The default: POST and PATCH, with ``structuredUUID()`` keys.
    public static var automatic: IdempotencyKeys { IdempotencyKeys() }

    /// The methods whose requests get a key.
    public var methods: Set<HTTPRequest.Method>
    /// Makes the value of a new key (called once per call that needs one). It must be a valid field
    /// value; one that is not is not sent and the request keeps no key.
    public var makeKey: @Sendable () -> String

    /// Creates the setting.
    /// - Parameters:
    ///   - methods: The methods whose requests get a key.
    ///   - makeKey: Makes a key's value; by default the draft's form, ``structuredUUID()``. Servers
    ///     that want a bare token (no quotes) take `{ UUID().uuidString }`.
    public init(
        methods: Set<HTTPRequest.Method> = IdempotencyKeys.defaultMethods,
        makeKey: @escaping @Sendable () -> String = IdempotencyKeys.structuredUUID
    ) {
        self.methods = methods
        self.makeKey = makeKey
    }

    /// `request` with an `Idempotency-Key` when its method needs one and it has none: the key the
    /// call already made (kept in `context`), or a new one.
    func keyed(_ request: Request, context: ExchangeContext) -> Request {
        guard methods.contains(request.head.method), !request.head.headerFields.containsField(named: .idempotencyKey) else {
            return request
        }
        let key: String
        if let made = context[IdempotencyKeyOfTheCall.self] {
            key = made
        } else {
            key = makeKey()
            guard Self.isValidFieldValue(key) else { return request }
            context[IdempotencyKeyOfTheCall.self] = key
        }
        var keyed = request
        keyed.head.headerFields[.idempotencyKey] = key
        return keyed
    }

    /// Whether `value` is a non-empty field value without CR, LF, NUL or surrounding whitespace
    /// (`HTTPFields` would otherwise send a changed value).
    private static func isValidFieldValue(_ value: String) -> Bool {
        let bytes = value.utf8
        guard let first = bytes.first, let last = bytes.last else { return false }
        let space: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return !space(first) && !space(last) && !bytes.contains { $0 == 0 || $0 == 0x0A || $0 == 0x0D }
    }
}

/// The automatic `Idempotency-Key` made for a call, so that every attempt and redirect hop sends it.
enum IdempotencyKeyOfTheCall: ExchangeContextKey {
    typealias Value = String
}
