public import HTTPTypes

/// Checks a request head before anything is sent, so that bad input fails fast with an actionable error.
public enum RequestValidator {
    /// The URL schemes the shipped transports speak (compared case-insensitively).
    public static let supportedSchemes = ["http", "https"]

    /// Validates the parts of a head that every transport relies on.
    /// - Parameter head: The request head to check.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` describing the first problem found.
    public static func validate(_ head: HTTPRequest) throws(SwitchyardError) {
        guard let scheme = head.scheme, supportedSchemes.contains(where: { Self.equalsIgnoringASCIICase(scheme, $0) }) else {
            throw .invalidRequest("Unsupported URL scheme '\(head.scheme ?? "")': use http or https.")
        }
        guard let authority = head.authority, !authority.isEmpty else {
            throw .invalidRequest("The request has no host: give an absolute URL such as https://example.com/path.")
        }
        guard authority.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw .invalidRequest("The host '\(authority)' contains spaces or control characters.")
        }
        if let path = head.path, path.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw .invalidRequest("The path contains spaces or control characters; percent-encode them.")
        }
    }

    /// Compares without allocating a lower-cased copy: this runs once per request.
    private static func equalsIgnoringASCIICase(_ text: String, _ lowercase: String) -> Bool {
        text.utf8.elementsEqual(lowercase.utf8) { ($0 | 0x20) == $1 }
    }
}
