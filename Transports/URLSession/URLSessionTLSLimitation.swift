import SwitchyardCore
import SwitchyardTransportKit

/// The ``TLSOptions`` URLSession cannot honour, as the error every request then fails with.
///
/// FoundationNetworking (Linux) drives libcurl but exposes none of its TLS options per session:
/// trust roots come only from the process-wide `URLSessionCertificateAuthorityInfoFile`
/// environment variable (which also turns verification off when set to `INSECURE_SSL_NO_VERIFY`),
/// server-trust and client-certificate challenges are never delivered to the delegate, and
/// `tlsMinimumSupportedProtocolVersion` is not applied. Honouring only part of the options would
/// make an unchecked pin or an unused CA look effective, so any option other than the defaults
/// fails every request instead. On Apple platforms the delegate challenges that would allow these
/// options are not implemented yet.
enum URLSessionTLSLimitation {
    /// `nil` for the default options; otherwise the ``SwitchyardError/Kind/tls`` error naming what is unsupported.
    static func error(for options: TLSOptions) -> SwitchyardError? {
        guard !options.isDefault else { return nil }
        var unsupported: [String] = []
        if !options.trustRoots.certificateFiles.isEmpty || !options.trustRoots.includesSystem {
            unsupported.append("custom trust roots")
        }
        if !options.pinnedPublicKeys.isEmpty { unsupported.append("public key pinning") }
        if options.clientCertificate != nil { unsupported.append("client certificates") }
        if options.minimumVersion != .v1_2 { unsupported.append("a minimum of \(options.minimumVersion)") }
        if options.skipsVerification { unsupported.append("skipping verification") }
        return SwitchyardError(
            .tls,
            "URLSessionTransport does not support \(unsupported.joined(separator: ", ")):"
                + " URLSession offers no per-session setting for it on this platform, and ignoring it would leave the"
                + " connection less protected than configured, so no request is sent. Use CurlTransport or"
                + " AsyncHTTPClientTransport for these TLSOptions.")
    }
}
