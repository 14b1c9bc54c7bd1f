public import Foundation
public import Switchyard

/// A department plugin that signs its own requests: HMAC-SHA256 over method, path, timestamp and
/// body hash (see ``RequestSigner``), at the attempt position, for requests in its scope only.
///
/// ```swift
/// let signing = SigningPlugin.make(
///     scope: RequestScope(hosts: ["pay.example.com"]),
///     signer: RequestSigner(keyID: "payments-2026", secret: Array(secret.utf8)))
/// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [signing]))
/// ```
public enum SigningPlugin {
    /// The plugin's default name.
    public static let name = "signing"

    /// Makes the plugin.
    /// - Parameters:
    ///   - name: The plugin's name (default ``name``).
    ///   - scope: The requests to sign.
    ///   - signer: The key.
    ///   - placement: Where among other attempt plugins (default: registration order).
    ///   - now: The clock for timestamps.
    /// - Returns: A `Plugin` at the attempt position.
    public static func make(
        name: String = SigningPlugin.name,
        scope: RequestScope,
        signer: RequestSigner,
        placement: Plugin.Placement = .inOrder,
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> Plugin {
        Plugin(
            name: name, scope: scope, position: .attempt, placement: placement,
            interceptors: [SigningInterceptor(signer: signer, now: now)])
    }
}
