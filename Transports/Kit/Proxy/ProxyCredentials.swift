import SwitchyardCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The user name and password a proxy asks for (`Proxy-Authorization: Basic …`, RFC 7617).
///
/// Its ``description`` never shows the password, so printing or logging a value, a
/// ``ProxyServer`` or a ``ProxyConfiguration`` cannot leak it.
public struct ProxyCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `user:<redacted>`: the user name, never the password.
    public var description: String { "\(user):\(ProxyServer.redactedPassword)" }

    /// A mirror without the password, so `dump(_:)` does not print it either.
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": ProxyServer.redactedPassword]) }

    /// The base64 of `user:password` (what follows `Basic ` in `Proxy-Authorization`).
    public var basicToken: String {
        Data((user + ":" + password).utf8).base64EncodedString()
    }
}
