#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The user information of a URL (`http://user:password@host/`), turned into the
/// `Authorization: Basic` value curl sends for it (RFC 7617).
struct URLCredentials {
    /// The percent-decoded user name; empty in `http://:password@host/`.
    let user: [UInt8]
    /// The percent-decoded password; empty when the URL has none (`http://user@host/`).
    let password: [UInt8]

    /// The credentials of `url`, or `nil` when it has no user information.
    init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.percentEncodedUser != nil || components.percentEncodedPassword != nil
        else { return nil }
        user = components.percentEncodedUser?.percentDecodedBytes ?? []
        password = components.percentEncodedPassword?.percentDecodedBytes ?? []
    }

    /// `Basic base64(user ":" password)`.
    var basicAuthorization: String {
        "Basic " + Data(user + [UInt8(ascii: ":")] + password).base64EncodedString()
    }
}
