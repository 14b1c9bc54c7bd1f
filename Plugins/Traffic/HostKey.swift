import HTTPTypes
import SwitchyardCore

/// The key per-host traffic state is kept under (a circuit breaker, a rate limiter's bucket).
enum HostKey {
    /// The request's authority without user information, lower-cased: the request's own string when
    /// it is already in that form (no new string), `""` without an authority.
    static func of(_ request: HTTPRequest) -> String {
        guard let authority = request.authority else { return "" }
        var plain = true
        for byte in authority.utf8 where byte == UInt8(ascii: "@") || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) {
            plain = false
            break
        }
        return plain ? authority : RequestOrigin.hostAndPort(of: authority).lowercased()
    }
}
