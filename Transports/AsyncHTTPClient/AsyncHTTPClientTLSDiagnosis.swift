import NIOCore
import NIOPosix
import NIOSSL
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells an expired certificate from an untrusted one after AsyncHTTPClient failed a handshake.
///
/// BoringSSL reports every chain-verification failure as the same `CERTIFICATE_VERIFY_FAILED`, and
/// AsyncHTTPClient offers no verification callback that would see the reason. So when a request
/// failed that way, a second handshake to the same address (no HTTP request is sent on it) collects
/// the server's certificate chain with a custom verification callback that then refuses it, and the
/// chain's validity dates decide: a certificate outside its validity period makes the error
/// ``TLSFailureReason/expired``; anything else stays ``TLSFailureReason/untrusted``. It runs only
/// on that failure path; the handshake ends as soon as the chain is collected, and ``bound`` only
/// guards against a server that never completes it (two seconds proved too short on a busy machine:
/// the chain came later and an expired certificate was reported as untrusted).
enum AsyncHTTPClientTLSDiagnosis {
    /// The longest the second handshake may take, connecting included.
    static let bound = TimeAmount.seconds(15)

    /// Whether `error` is BoringSSL's chain-verification failure.
    static func isChainVerificationFailure(_ error: any Error) -> Bool {
        guard case NIOSSLError.handshakeFailed = error else { return false }
        return "\(error)".contains("CERTIFICATE_VERIFY_FAILED")
    }

    /// The ``TLSFailureReason/expired`` error when the server's chain holds a certificate outside its
    /// validity period, otherwise `mapped` unchanged.
    static func refine(
        _ mapped: SwitchyardError, host authority: String, url: String,
        group: any EventLoopGroup
    ) async -> SwitchyardError {
        guard let (host, port) = address(of: url), let expiredAt = await firstInvalidDate(host: host, port: port, group: group)
        else { return mapped }
        return TLSFailureReason.expired.error(
            host: authority,
            detail: "a certificate in its chain is valid only until or from \(expiredAt) (seconds since 1970);"
                + " BoringSSL: CERTIFICATE_VERIFY_FAILED",
            underlyingError: mapped.underlyingError)
    }

    /// Host and port of an `https` URL.
    private static func address(of url: String) -> (String, Int)? {
        guard url.lowercased().hasPrefix("https://") else { return nil }
        var rest = url.dropFirst("https://".count)
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var host = Substring(rest)
        var port = 443
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":"), let value = Int(after.dropFirst()) { port = value }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let value = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = value
        }
        return host.isEmpty ? nil : (String(host), port)
    }

    /// The first validity bound of the peer's chain that is violated now, or `nil` (all valid, or no chain seen).
    private static func firstInvalidDate(host: String, port: Int, group: any EventLoopGroup) async -> Int? {
        let violated = Lock<Int?>(nil)
        let now = Int(time(nil))
        do {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .fullVerification
            let context = try NIOSSLContext(configuration: configuration)
            let serverName = host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
            let channel = try await ClientBootstrap(group: group)
                .connectTimeout(bound)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let collect: NIOSSLCustomVerificationCallback = { chain, promise in
                            for certificate in chain {
                                let bounds = (Int(certificate.notValidBefore), Int(certificate.notValidAfter))
                                if now < bounds.0 || now > bounds.1 {
                                    violated.withLock { $0 = $0 ?? (now < bounds.0 ? bounds.0 : bounds.1) }
                                    break
                                }
                            }
                            promise.succeed(NIOSSLVerificationResult.failed)  // collected: end the handshake here
                        }
                        let handler = try NIOSSLClientHandler(
                            context: context, serverHostname: serverName,
                            customVerificationCallback: collect)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
                .connect(host: host, port: port).get()
            let closing = channel.closeFuture
            channel.eventLoop.scheduleTask(in: bound) { channel.close(promise: nil) }
            try? await closing.get()
        } catch {
            return nil
        }
        return violated.withLock { $0 }
    }
}
