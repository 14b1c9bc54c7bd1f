import SwitchyardCore

/// How a transport sets up TLS: which certificate authorities it trusts, which server keys it
/// accepts, the certificate it presents, and the oldest protocol version it speaks.
///
/// Every transport's `Configuration` has a `tls` property of this type, with the same meaning on
/// each; where a transport cannot honour an option it says so in its documentation and fails every
/// request with a ``SwitchyardError/Kind/tls`` error instead of silently ignoring it. The default
/// verifies the server's certificate chain and host name against the system trust store and speaks
/// TLS 1.2 or later.
///
/// ```swift
/// var tls = TLSOptions()
/// tls.trustRoots = .systemAnd(certificateFiles: ["/etc/myapp/internal-ca.pem"])
/// tls.pinnedPublicKeys = [try TLSOptions.PublicKeyPin("sha256//5mgUqcVKPGdj5IDMa7UBcoTDnD3BqRTfuLlHG39lfnY=")]
/// let transport = CurlTransport(configuration: .init(tls: tls))
/// ```
///
/// A failed check is a ``SwitchyardError/Kind/tls`` error whose message says which check failed:
/// an untrusted issuer, an expired certificate, a certificate for another host name, or a public key
/// that matches no pin (see ``TLSFailureReason``).
public struct TLSOptions: Sendable, Hashable {
    /// The certificate authorities whose certificates are trusted. Default: ``TrustRoots/system``.
    public var trustRoots: TrustRoots
    /// Public keys the server's certificate must have, as SHA-256 digests of its
    /// SubjectPublicKeyInfo; one match is enough. Empty (the default): no pinning.
    ///
    /// Pinning is checked in addition to the normal chain verification, during the TLS handshake,
    /// before any byte of the request is sent.
    public var pinnedPublicKeys: [PublicKeyPin]
    /// The certificate presented when the server asks for one (mutual TLS); `nil` (the default): none.
    public var clientCertificate: ClientCertificate?
    /// The oldest TLS version negotiated. Default: ``TLSVersion/v1_2`` (not enforced by
    /// `URLSessionTransport` on Linux, which cannot change libcurl's default there).
    public var minimumVersion: TLSVersion
    /// Whether the server's certificate chain and host name go unchecked: only through
    /// ``insecureSkippingVerificationForDevelopmentOnly``, never by accident.
    public private(set) var skipsVerification: Bool

    /// Creates options; the defaults verify against the system trust store with TLS 1.2 or later.
    /// - Parameters:
    ///   - trustRoots: The trusted certificate authorities.
    ///   - pinnedPublicKeys: Accepted server keys (empty: no pinning).
    ///   - clientCertificate: The certificate presented for mutual TLS.
    ///   - minimumVersion: The oldest TLS version negotiated.
    public init(
        trustRoots: TrustRoots = .system,
        pinnedPublicKeys: [PublicKeyPin] = [],
        clientCertificate: ClientCertificate? = nil,
        minimumVersion: TLSVersion = .v1_2
    ) {
        self.trustRoots = trustRoots
        self.pinnedPublicKeys = pinnedPublicKeys
        self.clientCertificate = clientCertificate
        self.minimumVersion = minimumVersion
        self.skipsVerification = false
    }

    /// The defaults: system trust store, no pins, no client certificate, TLS 1.2 or later.
    public static let `default` = TLSOptions()

    /// Options that accept **any** server certificate, whoever issued it, whenever it expired and
    /// whatever host it names: anyone on the network path can read and change the traffic.
    ///
    /// For development against a server with a throw-away certificate only; trust its CA with
    /// ``TrustRoots/systemAnd(certificateFiles:)`` instead wherever possible. Pins and trust roots
    /// are not checked either (a pin that is configured on top of it fails every request, because
    /// it would look checked when it is not); a client certificate is still presented.
    public static var insecureSkippingVerificationForDevelopmentOnly: TLSOptions {
        var options = TLSOptions()
        options.skipsVerification = true
        return options
    }

    /// Whether these are exactly the defaults, which every transport supports: lets a transport skip
    /// all TLS set-up work (and the check of what it supports) in the common case.
    public var isDefault: Bool { self == .default }

    /// The problem with these options that no transport can work around, or `nil`: pins while
    /// verification is skipped (they would look checked when they are not).
    public var inconsistency: String? {
        if skipsVerification, !pinnedPublicKeys.isEmpty {
            return "TLSOptions pins server keys but skips verification, so the pins would never be checked;"
                + " drop insecureSkippingVerificationForDevelopmentOnly or the pins."
        }
        return nil
    }
}
