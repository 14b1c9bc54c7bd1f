public import Foundation
public import SwitchyardCore

extension Plugin {
    /// A department plugin that signs its own requests: HMAC-SHA256 over method, path, timestamp
    /// and body hash (see ``RequestSigner``), for requests in its scope only (one
    /// ``SigningInterceptor``).
    ///
    /// ```swift
    /// let signing = Plugin.signing(
    ///     scope: RequestScope(hosts: ["pay.example.com"]),
    ///     signer: RequestSigner(keyID: "payments-2026", secret: Array(secret.utf8)))
    /// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [signing]))
    /// ```
    ///
    /// Named `signing` (``SigningPlugin/name``) unless told otherwise, in the attempt position at
    /// the department layer, so the signature covers each attempt exactly as it goes on the wire
    /// (a retry or a redirect hop is signed anew).
    /// - Parameters:
    ///   - name: The plugin's name (default ``SigningPlugin/name``).
    ///   - scope: The requests to sign.
    ///   - signer: The key.
    ///   - placement: Where among other attempt plugins (default: registration order).
    ///   - now: The clock for timestamps.
    /// - Returns: A plugin at the attempt position.
    public static func signing(
        name: String = SigningPlugin.name,
        scope: RequestScope,
        signer: RequestSigner,
        placement: Placement = .inOrder,
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> Plugin {
        Plugin(
            name: name, scope: scope, position: .attempt, placement: placement,
            interceptors: [SigningInterceptor(signer: signer, now: now)])
    }
}

/// The signing plugin's default name;
/// `Plugin.signing(name:scope:signer:placement:now:)` makes the plugin.
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
    @available(*, deprecated, renamed: "Plugin.signing(name:scope:signer:placement:now:)")
    public static func make(
        name: String = SigningPlugin.name,
        scope: RequestScope,
        signer: RequestSigner,
        placement: Plugin.Placement = .inOrder,
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> Plugin {
        .signing(name: name, scope: scope, signer: signer, placement: placement, now: now)
    }
}
