/// The HTTP version an exchange was carried over, as the transport reports it: `1.0`, `1.1` or `2`.
///
/// Read it from ``TransferTimings/httpVersion`` (also ``BufferedResponse/httpVersion``); `nil` there means the
/// transport could not tell (URLSession on Linux).
///
/// ```swift
/// let response = try await client.send(request)
/// print(response.httpVersion?.description ?? "unknown")   // "2" when HTTP/2 was negotiated over TLS
/// ```
public struct HTTPProtocolVersion: Sendable, Hashable, CustomStringConvertible {
    /// The major version (`1`, `2`).
    public let major: Int
    /// The minor version (`0`, `1`).
    public let minor: Int

    /// Creates a version from its numbers.
    /// - Parameters:
    ///   - major: The major version.
    ///   - minor: The minor version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// HTTP/1.0.
    public static let http1_0 = HTTPProtocolVersion(major: 1, minor: 0)
    /// HTTP/1.1.
    public static let http1_1 = HTTPProtocolVersion(major: 1, minor: 1)
    /// HTTP/2.
    public static let http2 = HTTPProtocolVersion(major: 2, minor: 0)
    /// HTTP/3.
    public static let http3 = HTTPProtocolVersion(major: 3, minor: 0)

    /// `"1.0"`, `"1.1"`, `"2"`, `"3"`: the form of curl's `--write-out %{http_version}` and of the
    /// `http_version` field of `yard request -w '%{json}'`.
    public var description: String {
        major >= 2 && minor == 0 ? String(major) : "\(major).\(minor)"
    }
}
