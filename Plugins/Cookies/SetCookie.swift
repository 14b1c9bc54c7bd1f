public import Foundation
import SwitchyardCore

/// One `Set-Cookie` field read as RFC 6265bis's parsing algorithm says (§5.6): leniently, because
/// servers send everything; unknown attributes are ignored, a broken attribute is dropped alone, and
/// only a field with control characters or no name and no value is refused.
public struct SetCookie: Sendable, Hashable {
    /// The cookie's name (empty when the field had no `=` before the first `;`).
    public var name: String
    /// The cookie's value.
    public var value: String
    /// The last valid `Expires`.
    public var expires: Date?
    /// The last valid `Max-Age`, in seconds (zero or negative: expire now).
    public var maxAge: Int64?
    /// The last non-empty `Domain`, canonical (lower-cased, no leading dot).
    public var domain: String?
    /// The last `Path` that starts with `/`; `nil` means the request's default path.
    public var path: String?
    /// `Secure` was present.
    public var isSecure = false
    /// `HttpOnly` was present.
    public var isHTTPOnly = false
    /// The last `SameSite`.
    public var sameSite: Cookie.SameSite = .default

    /// The longest name plus value a jar accepts (RFC 6265bis §5.6: 4,096 octets).
    public static let maximumPairLength = 4_096
    /// The longest attribute value a jar reads (§5.6: 1,024 octets; longer ones are ignored).
    public static let maximumAttributeValueLength = 1_024

    /// Parses a `Set-Cookie` field value.
    /// - Parameter field: The field value.
    /// - Returns: The parsed field, or `nil` when it must be ignored entirely.
    public init?(_ field: some StringProtocol) {
        let field = Substring(field)
        // Control characters other than horizontal tab make the whole field invalid.
        guard !field.unicodeScalars.contains(where: { ($0.value < 0x20 && $0.value != 0x09) || $0.value == 0x7F }) else {
            return nil
        }
        let pairEnd = field.firstIndex(of: ";") ?? field.endIndex
        let pair = field[..<pairEnd]
        if let equals = pair.firstIndex(of: "=") {
            name = String(pair[..<equals].trimmingSpaces())
            value = String(pair[pair.index(after: equals)...].trimmingSpaces())
        } else {
            name = ""
            value = String(pair.trimmingSpaces())
        }
        guard !(name.isEmpty && value.isEmpty), name.utf8.count + value.utf8.count <= Self.maximumPairLength else {
            return nil
        }
        for attribute in field[pairEnd...].split(separator: ";") {
            readAttribute(attribute)
        }
    }

    private mutating func readAttribute(_ attribute: Substring) {
        let equals = attribute.firstIndex(of: "=")
        let key = attribute[..<(equals ?? attribute.endIndex)].trimmingSpaces().lowercased()
        let value = equals.map { attribute[attribute.index(after: $0)...].trimmingSpaces() } ?? ""
        guard value.utf8.count <= Self.maximumAttributeValueLength else { return }
        switch key {
        case "expires":
            if let date = CookieDate.parse(value) { expires = date }
        case "max-age":
            guard let first = value.first, first == "-" || first.isASCIIDigit,
                value.dropFirst().allSatisfy(\.isASCIIDigit), value != "-"
            else { return }
            // A number too large for 64 bits still means "far in the future" (or the past).
            maxAge = Int64(value) ?? (first == "-" ? Int64.min : Int64.max)
        case "domain":
            guard !value.isEmpty else { return }
            domain = CookieDomain.canonical(value)
        case "path":
            path = value.hasPrefix("/") ? String(value) : nil
        case "secure":
            isSecure = true
        case "httponly":
            isHTTPOnly = true
        case "samesite":
            sameSite = Cookie.SameSite(rawValue: value.lowercased()) ?? .default
        default:
            break
        }
    }
}
