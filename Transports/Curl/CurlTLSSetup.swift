import CCurl
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A transport's ``TLSOptions`` turned into libcurl options once, when the transport starts: the
/// custom CA certificates read into memory, the pins joined into curl's list. Immutable; the event
/// loop applies it to every easy handle it resets.
///
/// Trust roots go in as `CURLOPT_CAINFO_BLOB`, which replaces libcurl's default CA bundle file;
/// the default CA directory (`CURLOPT_CAPATH`, `/etc/ssl/certs` on Debian) stays in place for
/// ``TLSOptions/TrustRoots/systemAnd(certificateFiles:)`` and is cleared for
/// ``TLSOptions/TrustRoots/only(certificateFiles:)``. A libcurl built without a default CA
/// directory gets the default bundle's certificates prepended to the blob instead, so the system
/// store is never dropped by accident.
final class CurlTLSSetup: Sendable {
    /// Whether the options are the defaults: nothing beyond peer verification and TLS 1.2 to set.
    let isDefault: Bool
    let verifies: Bool
    let minimumVersion: TLSOptions.TLSVersion
    /// The PEM bytes of the trusted CAs, or `nil` to leave libcurl's defaults.
    let caBlob: [UInt8]?
    /// Whether the default CA directory is cleared (only the blob is trusted).
    let clearsCAPath: Bool
    let pinnedPublicKeys: String?
    let clientCertificate: TLSOptions.ClientCertificate?
    /// Why every request must fail (unreadable files, inconsistent options), or `nil`.
    let failure: SwitchyardError?

    init(_ options: TLSOptions) {
        isDefault = options.isDefault
        verifies = !options.skipsVerification
        minimumVersion = options.minimumVersion
        clientCertificate = options.clientCertificate
        pinnedPublicKeys =
            options.pinnedPublicKeys.isEmpty
            ? nil
            : TLSOptions.PublicKeyPin.curlList(options.pinnedPublicKeys)
        clearsCAPath = !options.trustRoots.includesSystem
        var failure: SwitchyardError? = options.inconsistency.map { SwitchyardError(.tls, $0) }
        var blob: [UInt8]?
        let files = options.trustRoots.certificateFiles
        if !files.isEmpty {
            var bytes: [UInt8] = []
            if options.trustRoots.includesSystem, Self.defaultCAPath() == nil, let bundle = Self.defaultCABundle(),
                let contents = FileManager.default.contents(atPath: bundle)
            {
                bytes += contents
                bytes.append(UInt8(ascii: "\n"))
            }
            for file in files {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    failure =
                        failure
                        ?? TLSFailureReason.trustRootsUnusable.error(
                            host: "every server", detail: "cannot read \(file)")
                    continue
                }
                bytes += contents
                bytes.append(UInt8(ascii: "\n"))
            }
            blob = bytes
        }
        caBlob = blob
        if let certificate = options.clientCertificate {
            for file in [certificate.certificateFile, certificate.privateKeyFile]
            where !FileManager.default.isReadableFile(atPath: file) {
                failure =
                    failure
                    ?? TLSFailureReason.clientCertificateUnusable.error(
                        host: "every server", detail: "cannot read \(file)")
            }
        }
        self.failure = failure
    }

    /// Sets the TLS options on a freshly reset easy handle.
    func apply(to easy: UnsafeMutableRawPointer) {
        _ = ccurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, verifies ? 1 : 0)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, verifies ? 2 : 0)
        let version = minimumVersion == .v1_3 ? CURL_SSLVERSION_TLSv1_3 : CURL_SSLVERSION_TLSv1_2
        _ = ccurl_easy_setopt_long(easy, CURLOPT_SSLVERSION, version)
        guard !isDefault else { return }
        if let caBlob {
            _ = caBlob.withUnsafeBytes { ccurl_easy_setopt_blob_copy(easy, CURLOPT_CAINFO_BLOB, $0.baseAddress, $0.count) }
        }
        if clearsCAPath {
            _ = ccurl_easy_setopt_pointer(easy, CURLOPT_CAPATH, nil)
        }
        if let pinnedPublicKeys {
            _ = ccurl_easy_setopt_string(easy, CURLOPT_PINNEDPUBLICKEY, pinnedPublicKeys)
        }
        if let clientCertificate {
            _ = ccurl_easy_setopt_string(easy, CURLOPT_SSLCERT, clientCertificate.certificateFile)
            _ = ccurl_easy_setopt_string(easy, CURLOPT_SSLCERTTYPE, "PEM")
            _ = ccurl_easy_setopt_string(easy, CURLOPT_SSLKEY, clientCertificate.privateKeyFile)
            _ = ccurl_easy_setopt_string(easy, CURLOPT_SSLKEYTYPE, "PEM")
        }
    }

    /// libcurl's built-in CA directory, or `nil` when it was built without one.
    private static func defaultCAPath() -> String? {
        defaultLocation(CURLINFO_CAPATH)
    }

    /// libcurl's built-in CA bundle file, or `nil` when it was built without one.
    private static func defaultCABundle() -> String? {
        defaultLocation(CURLINFO_CAINFO)
    }

    private static func defaultLocation(_ info: CURLINFO) -> String? {
        guard let easy = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(easy) }
        var pointer: UnsafeMutablePointer<CChar>?
        guard ccurl_easy_getinfo_string(easy, info, &pointer) == CURLE_OK, let pointer else { return nil }
        let path = String(cString: pointer)
        return path.isEmpty ? nil : path
    }
}
