import AsyncHTTPClient
import Crypto
import NIOCore
import NIOSSL
import SwitchyardCore
import SwitchyardTransportKit

/// ``TLSOptions`` turned into SwiftNIO SSL's `TLSConfiguration` and a public-key pin check.
///
/// Certificates and keys are loaded once, when the configuration is built. Pins are checked by
/// AsyncHTTPClient's connection initializers (`http1_1ConnectionDebugInitializer` and
/// `http2ConnectionDebugInitializer`), which run after the TLS handshake and before the pool hands
/// the connection to any request: a mismatch fails the waiting requests with
/// ``TLSFailureReason/pinMismatch`` and closes the connection, so no request byte is sent.
struct AsyncHTTPClientTLS: Sendable {
    /// NIOSSL's configuration. Always set: NIOSSL's own default minimum is TLS 1.0, below
    /// ``TLSOptions/minimumVersion``'s default of TLS 1.2.
    let configuration: TLSConfiguration
    /// The accepted SHA-256 digests of the server's SubjectPublicKeyInfo (empty: no pinning).
    let pins: Set<[UInt8]>
    /// Why every request must fail (unreadable files, inconsistent options), or `nil`.
    let failure: SwitchyardError?

    init(_ options: TLSOptions) {
        pins = Set(options.pinnedPublicKeys.map(\.sha256))
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = options.minimumVersion == .v1_3 ? .tlsv13 : .tlsv12
        guard !options.isDefault else {
            configuration = tls
            failure = nil
            return
        }
        var failure: SwitchyardError? = options.inconsistency.map { SwitchyardError(.tls, $0) }
        if options.skipsVerification { tls.certificateVerification = .none }
        let files = options.trustRoots.certificateFiles
        if !files.isEmpty {
            var certificates: [NIOSSLCertificate] = []
            for file in files {
                do {
                    certificates += try NIOSSLCertificate.fromPEMFile(file)
                } catch {
                    failure =
                        failure
                        ?? TLSFailureReason.trustRootsUnusable.error(
                            host: "every server", detail: "cannot load \(file): \(error)", underlyingError: error)
                }
            }
            if options.trustRoots.includesSystem {
                tls.trustRoots = .default
                tls.additionalTrustRoots = [.certificates(certificates)]
            } else {
                tls.trustRoots = .certificates(certificates)  // empty when none loaded: trusts nothing
            }
        }
        if let client = options.clientCertificate {
            do {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(client.certificateFile).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: client.privateKeyFile, format: .pem))
            } catch {
                failure =
                    failure
                    ?? TLSFailureReason.clientCertificateUnusable.error(
                        host: "every server",
                        detail: "cannot load \(client.certificateFile) or \(client.privateKeyFile):"
                            + " \(error)", underlyingError: error)
            }
        }
        self.configuration = tls
        self.failure = failure
    }

    /// Sets the TLS configuration and, when keys are pinned, the pin check on `configuration`.
    func apply(to configuration: inout HTTPClient.Configuration) {
        configuration.tlsConfiguration = self.configuration
        guard !pins.isEmpty else { return }
        let pins = self.pins
        configuration.http1_1ConnectionDebugInitializer = { channel in Self.checkPins(pins, on: channel) }
        configuration.http2ConnectionDebugInitializer = { channel in Self.checkPins(pins, on: channel) }
    }

    /// Succeeds when the connection is not TLS or its peer's key matches a pin; otherwise fails with
    /// ``TLSFailureReason/pinMismatch`` and closes the connection.
    private static func checkPins(_ pins: Set<[UInt8]>, on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            guard let handler = try? channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self) else {
                return  // plain HTTP: nothing to pin (as with curl)
            }
            let host = channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "the server"
            let digest: [UInt8]
            do {
                guard let certificate = handler.peerCertificate else {
                    throw TLSFailureReason.pinMismatch.error(host: host, detail: "the server presented no certificate")
                }
                digest = Array(SHA256.hash(data: try certificate.extractPublicKey().toSPKIBytes()))
            } catch {
                closeAfterFailure(channel)
                throw (error as? SwitchyardError)
                    ?? TLSFailureReason.pinMismatch.error(
                        host: host, detail: "its public key could not be read: \(error)", underlyingError: error)
            }
            guard pins.contains(digest) else {
                closeAfterFailure(channel)
                let presented = (try? TLSOptions.PublicKeyPin(sha256: digest))?.description ?? "?"
                throw TLSFailureReason.pinMismatch.error(host: host, detail: "the server's key is \(presented)")
            }
        }
    }

    /// Closes a connection whose pin check failed, after AsyncHTTPClient has recorded the failure:
    /// it completes the initializer's (already failed) future inline on this same event loop, so
    /// the close reaches its pool only after the connection is forgotten.
    private static func closeAfterFailure(_ channel: any Channel) {
        channel.eventLoop.execute { channel.close(promise: nil) }
    }
}
