public import SwitchyardCore

/// Which TLS check failed, told apart from what the TLS library reported, so the
/// ``SwitchyardError/Kind/tls`` error of every transport says the same thing for the same cause.
public enum TLSFailureReason: Sendable, Hashable, CaseIterable {
    /// The certificate chain does not lead to a trusted certificate authority (self-signed, or an
    /// issuer missing from the trust roots).
    case untrusted
    /// The server's certificate (or one in its chain) has expired, or is not valid yet.
    case expired
    /// The certificate is not issued for the host name (or IP address) in the URL.
    case hostMismatch
    /// The server's public key matches none of ``TLSOptions/pinnedPublicKeys``.
    case pinMismatch
    /// The server asked for a client certificate and none (or one it does not accept) was presented.
    case clientCertificateRejected
    /// The configured client certificate or key could not be loaded.
    case clientCertificateUnusable
    /// A configured trust-root file could not be loaded.
    case trustRootsUnusable
    /// Client and server share no protocol version (see ``TLSOptions/minimumVersion``).
    case versionMismatch

    /// Recognises the cause in a TLS library's message (OpenSSL through libcurl, BoringSSL through
    /// SwiftNIO SSL), or `nil` when the text names none of them.
    /// - Parameter detail: The library's message.
    public static func classify(_ detail: String) -> TLSFailureReason? {
        let text = detail.lowercased()
        func has(_ markers: String...) -> Bool { markers.contains(where: text.contains) }
        if has("pinned public key", "pinnedpubkey", "public key pin") { return .pinMismatch }
        if has("expired", "not yet valid", "certificate_expired", "bad date") { return .expired }
        if has(
            "subject name", "alternative certificate subject", "failedtovalidatehostname",
            "hostname", "host name")
        {
            return .hostMismatch
        }
        if has(
            "certificate required", "certificate_required", "alert bad certificate", "bad_certificate",
            "peer did not return a certificate")
        {
            return .clientCertificateRejected
        }
        if has(
            "unable to set private key", "unable to use client certificate", "could not load pem client",
            "client certificate", "certproblem")
        {
            return .clientCertificateUnusable
        }
        if has(
            "error setting certificate file", "error setting certificate verify locations", "cacert",
            "cafile")
        {
            return .trustRootsUnusable
        }
        if has(
            "protocol version", "protocol_version", "unsupported protocol", "unsupported_protocol",
            "wrong version number", "wrong_version_number", "no protocols available")
        {
            return .versionMismatch
        }
        if has(
            "unable to get local issuer", "self-signed", "self signed", "unknown ca", "unknown_ca",
            "certificate_verify_failed", "certificate verify failed", "untrusted", "unable to get issuer",
            "unknown root", "invalid certificate chain", "certificate problem")
        {
            return .untrusted
        }
        return nil
    }

    /// The ``SwitchyardError/Kind/tls`` error for this cause (its ``SwitchyardError/reason`` is
    /// ``SwitchyardError/Reason/tls(_:)`` of it): what failed, and what to do about it.
    /// - Parameters:
    ///   - host: The server's authority, e.g. `127.0.0.1:8443`.
    ///   - detail: The TLS library's own message, kept in parentheses.
    ///   - underlyingError: The library's error.
    public func error(host: String, detail: String, underlyingError: (any Error)? = nil) -> SwitchyardError {
        var error = SwitchyardError(.tls, message(host: host) + " (\(detail)).", underlyingError: underlyingError)
        error.reason = .tls(self)
        return error
    }

    private func message(host: String) -> String {
        switch self {
        case .untrusted:
            "The certificate of \(host) is not trusted: its chain leads to no certificate authority this client"
                + " trusts. Trust the server's CA with TLSOptions.trustRoots (yard: --cacert FILE)"
        case .expired:
            "The certificate of \(host) has expired (or is not valid yet): the server must renew it, or the"
                + " clock of one side is wrong"
        case .hostMismatch:
            "The certificate of \(host) is issued for another host name: connect with a name the certificate"
                + " lists, or have it reissued with this one"
        case .pinMismatch:
            "The public key of \(host)'s certificate matches none of the pinned keys, so the request was not"
                + " sent: the server changed its key, or someone is intercepting the connection"
        case .clientCertificateRejected:
            "\(host) refused the TLS handshake because it requires a client certificate it accepts: configure"
                + " TLSOptions.clientCertificate (yard: --cert FILE --key FILE)"
        case .clientCertificateUnusable:
            "The client certificate for \(host) could not be used: check that TLSOptions.clientCertificate names"
                + " a readable PEM certificate and its matching unencrypted PEM key"
        case .trustRootsUnusable:
            "The trust roots for \(host) could not be loaded: check that every file in TLSOptions.trustRoots is"
                + " a readable PEM file of CA certificates"
        case .versionMismatch:
            "\(host) and this client share no TLS version: the server does not speak the configured"
                + " TLSOptions.minimumVersion or later"
        }
    }
}

extension SwitchyardError.Reason {
    /// ``SwitchyardError/Kind/tls``: the TLS check that failed.
    /// - Parameter reason: The check, e.g. ``TLSFailureReason/untrusted``.
    /// - Returns: The reason named `tls.` followed by the check's name, e.g. `tls.untrusted`.
    public static func tls(_ reason: TLSFailureReason) -> Self { Self(rawValue: "tls.\(reason)") }
}
