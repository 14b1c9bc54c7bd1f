public import SwitchyardCore
public import SwitchyardPopUps

extension Plugin {
    /// Bearer-token authentication in the chain: the link of `auth`, which the app keeps to read
    /// the credential's state (``AuthPlugin/partitionKey``, ``AuthPlugin/credentialVersion``, …).
    ///
    /// ```swift
    /// let auth = AuthPlugin(scope: RequestScope(hosts: ["api.example.com"]), provider: session)
    /// let client = try Client(transport: CurlTransport(), configuration: ClientConfiguration(plugins: [.bearerAuth(auth)]))
    /// cache.partition = auth.partitionKey ?? ""   // e.g. one cache partition per signed-in user
    /// ```
    ///
    /// Named after `auth` (``AuthPlugin/name`` unless its init was told otherwise), in `auth`'s
    /// scope, in the attempt position at the department layer and `auth`'s placement: its scope is
    /// checked on every attempt and every redirect hop, so a redirect to a host outside it goes
    /// without the credential. What the link does is described at ``AuthPlugin``.
    /// - Parameter auth: The credential state (keep it); register its plugin with one client only.
    /// - Returns: The plugin: one attempt link in the department layer.
    public static func bearerAuth(_ auth: AuthPlugin) -> Plugin {
        auth.registration
    }
}

/// Bearer-token authentication with one refresh for any number of concurrent `401`s: the state the
/// app keeps; `Plugin.bearerAuth(_:)` puts it in a client's chain.
///
/// ```swift
/// let auth = AuthPlugin(scope: RequestScope(hosts: ["api.example.com"]), provider: session)
/// var popUps = PopUpPolicy()
/// popUps.add(auth.scope, AuthPlugin.popUpMessages)
/// let client = try Client(transport: CurlTransport(),
///                         configuration: ClientConfiguration(popUps: popUps, plugins: [.bearerAuth(auth)]))
/// ```
///
/// - Every request in ``scope`` is sent with `Authorization: Bearer <token>` from the provider's
///   ``CredentialProvider/current()``, and records the credential's version in its context
///   (``CredentialVersionKey``).
/// - A `401` on a request sent with an outdated version is replayed with the current credential,
///   without a refresh.
/// - Otherwise exactly one ``CredentialProvider/refresh(stale:)`` runs; every other `401` and every
///   new request in scope waits for it, then is replayed (or sent) with the new credential. Waits
///   end early when the waiting task is cancelled (`SwitchyardError.Kind.cancelled`) or its
///   deadline passes (`SwitchyardError.Kind.timeout`).
/// - When the refresh fails, every waiter fails with `SwitchyardError.Kind.unauthorized`; their
///   identical pop-ups are coalesced into one (within the policy's coalescing window). Later `401`s
///   on the same credential fail the same way without another refresh, until the provider returns a
///   new credential.
///
/// ### Where the credential goes
///
/// The plugin runs at the attempt position, so its scope is checked on every attempt and every
/// redirect hop: a redirect to a host outside ``scope`` goes without the credential. The scope must
/// name hosts. The token is only ever in the `Authorization` header, whose value the logging
/// interceptor and the `HARRecorder` write as `<redacted>`; errors (their messages and the request
/// head they carry) and descriptions never contain it. An `Authorization` field the app set on a
/// request in scope is replaced.
///
/// ### Cost
///
/// One call of the provider's `current()` and one lock per request; a `401` adds the wait.
public struct AuthPlugin: Sendable {
    /// The plugin's default name.
    public static let name = "auth"

    /// Pop-up texts for the plugin's failures: add them to the client's policy for ``scope``.
    public static let popUpMessages = PopUpMessages(kinds: [.unauthorized: "Please sign in again."])

    /// The requests that carry the credential.
    public let scope: RequestScope
    /// The plugin to register with the client (attempt position).
    @available(*, deprecated, message: "Register Plugin.bearerAuth(auth) instead.")
    public var plugin: Plugin { registration }
    /// The plugin `Plugin.bearerAuth(_:)` returns.
    let registration: Plugin
    private let gate: CredentialGate

    /// Creates the credential state and its plugin (register it with `Plugin.bearerAuth(_:)`).
    /// - Parameters:
    ///   - scope: The requests that carry the credential; it must name hosts.
    ///   - provider: The app's credentials.
    ///   - name: The plugin's name (default ``name``).
    ///   - placement: Where among other attempt plugins (default: registration order).
    /// - Precondition: `scope.hosts` is not empty: a credential for every host would leak to any
    ///   server a request or a redirect reaches.
    public init(
        scope: RequestScope, provider: some CredentialProvider, name: String = AuthPlugin.name,
        placement: Plugin.Placement = .inOrder
    ) {
        precondition(!scope.hosts.isEmpty, "AuthPlugin's scope must name the hosts that may receive the credential.")
        let gate = CredentialGate(provider: provider)
        self.scope = scope
        self.gate = gate
        self.registration = Plugin(
            name: name, scope: scope, position: .attempt, placement: placement,
            interceptors: [AuthInterceptor(gate: gate)])
    }

    /// The identity of the credential in use (``BearerCredential/identity``), for partitioning a
    /// cache by user; `nil` before the first request or when the provider gives none.
    public var partitionKey: String? { gate.identity }

    /// The version of the credential in use, `nil` before the first request.
    public var credentialVersion: UInt64? { gate.version }

    /// How many requests wait for a refresh right now (for diagnostics and tests).
    public var waitingRequestCount: Int { gate.waitingCount }

    /// How many refreshes the plugin has started.
    public var refreshCount: Int { gate.refreshCount }
}
