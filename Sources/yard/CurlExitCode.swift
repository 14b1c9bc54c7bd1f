import Switchyard

/// `yard request`'s exit status: curl's number for each failure curl has one for, so a script written
/// for curl reads yard's the same way. The code follows from the error's kind and reason alone, which
/// every transport reports alike (``SwitchyardError/reason``), so it is the same on every transport.
enum CurlExitCode {
    /// Bad command-line usage: swift-argument-parser's (and every yard command's) `EX_USAGE`. curl says 2,
    /// but 2 is also its "failed to initialize", and 64 is a curl code only for FTP's `--ssl-reqd`, which
    /// yard never meets.
    static let usage: Int32 = 64

    /// The output (standard output or `-o FILE`) could not be written, e.g. a closed pipe.
    static let writeFailed: Int32 = 23

    /// The exit status for `error`, or 0 for success (`nil`).
    /// - Parameter error: How the exchange failed, if it did.
    /// - Returns: curl's number for the failure.
    static func code(for error: SwitchyardError?) -> Int32 {
        guard let error else { return 0 }
        switch error.reason {
        case .hostNotResolved: return 6
        case .couldNotConnect: return 7
        case .bodyTruncated: return 18
        case .tls(.untrusted), .tls(.expired), .tls(.hostMismatch): return 60
        case .tls(.pinMismatch): return 90
        case .tls(.clientCertificateUnusable): return 58
        case .tls(.trustRootsUnusable): return 77
        default: break
        }
        switch error.kind {
        case .invalidRequest: return 3
        case .protocolViolation: return 8
        case .httpStatus: return 22
        case .outputFailed: return writeFailed
        case .timeout: return 28
        case .tls: return 35
        case .cancelled: return 42
        case .tooManyRedirects: return 47
        case .connectionFailed: return 56
        case .responseTooLarge: return 63
        default: return 1
        }
    }

    /// The table printed by `yard request --help` (and kept in `Sources/yard/README.md`).
    static let table = """
        Exit status, as curl numbers it: 0 success (any HTTP status without -f); 3 the request could not \
        be made as given (URL, header, body file); 6 host not resolved; 7 connection failed (refused, \
        unreachable, proxy unreachable); 8 the server broke HTTP; 18 the body ended before all of it \
        arrived; 22 -f and a status of 400 or more; \
        23 the output could not be written; 28 timeout (-m, --connect-timeout); 35 TLS handshake failed; \
        42 cancelled; 47 too many redirects; 56 the connection failed mid-exchange (reset, closed, proxy \
        refused); 58 client certificate unusable; 60 certificate not trusted (unknown issuer, expired, \
        wrong host name); 63 maximum size exceeded (--max-filesize); 77 --cacert file unusable; 90 \
        pinned public key mismatch; 1 any other failure; 64 bad command-line usage.
        """
}

extension SwitchyardError.Kind {
    /// `yard request` could not write the body where it was asked to (exit status 23).
    static let outputFailed = Self(rawValue: "outputFailed")
}
