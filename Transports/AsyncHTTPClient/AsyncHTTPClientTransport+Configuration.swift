public import AsyncHTTPClient
import NIOCore
import NIOHTTPCompression
import SwitchyardCore
public import SwitchyardTransportKit

extension AsyncHTTPClientTransport {
    /// Settings of the `HTTPClient` an ``AsyncHTTPClientTransport`` creates and owns.
    ///
    /// These settings apply only to ``AsyncHTTPClientTransport/init(configuration:)``; a wrapped client
    /// (``AsyncHTTPClientTransport/init(wrapping:contentDecoding:)``) keeps its own configuration.
    ///
    /// ```swift
    /// var configuration = AsyncHTTPClientTransport.Configuration()
    /// configuration.maxConnectionsPerHost = 128
    /// let transport = AsyncHTTPClientTransport(configuration: configuration)
    /// defer { Task { try await transport.shutdown() } }
    /// ```
    ///
    /// Whatever the settings, the owned client never follows redirects and fails a connection attempt
    /// at once instead of retrying it in the background until its connect timeout, so a refused
    /// connection is reported promptly as `SwitchyardError.Kind.connectionFailed`.
    public struct Configuration: Sendable {
        /// The default of ``maxConnectionsPerHost``: high enough that typical app concurrency is never
        /// serialised behind AsyncHTTPClient's own default of 8 connections per host.
        public static let defaultMaxConnectionsPerHost = 64

        /// Which HTTP versions to negotiate.
        public enum HTTPVersion: Sendable, Hashable {
            /// HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise.
            case automatic
            /// Always HTTP/1.1.
            case http1_1
        }

        /// HTTP/1.1 connections kept per host (AsyncHTTPClient's `concurrentHTTP1ConnectionsPerHostSoftLimit`).
        /// Requests beyond it wait in AsyncHTTPClient's queue; their deadline keeps running.
        public var maxConnectionsPerHost: Int
        /// How long establishing a connection (TCP and TLS) may take, independently of the request's deadline.
        public var connectTimeout: Duration
        /// How long an idle pooled connection is kept open.
        public var connectionIdleTimeout: Duration
        /// How long the server may send nothing during an exchange before it fails with `timeout`
        /// (`IdleTimeout`; AsyncHTTPClient's read timeout); `nil` turns the check off. AsyncHTTPClient
        /// schedules and cancels a timer per request for it (5–9 % of the samples in a loopback profile of
        /// small requests; `Benchmarks/results/2026-11-29-issue-42-close-to-the-floor.md`).
        public var idleTimeout: Duration?
        /// Whether `gzip`/`deflate` response bodies are decoded before they reach the chain.
        ///
        /// When on, requests without an `Accept-Encoding` header are sent with
        /// ``AsyncHTTPClientTransport/defaultAcceptEncoding``, and the transport decodes the bodies
        /// itself as they stream, the same way the curl transport does (AsyncHTTPClient's own
        /// decompression stays off): `RequestOptions.maxResponseBytes` counts decoded bytes, stacked
        /// codings are all undone, and a corrupt or unfinished stream is a
        /// `SwitchyardError.Kind.protocolViolation`.
        public var decodesContentEncoding: Bool
        /// The HTTP version policy.
        public var httpVersion: HTTPVersion
        /// The proxies requests go through (`ProxyConfiguration`); `nil` (the default): direct.
        ///
        /// AsyncHTTPClient has one proxy per client, so the transport keeps one extra `HTTPClient` per
        /// distinct proxy and picks per request (`ProxyConfiguration.noProxy` hosts use the direct
        /// one). It reaches every server through `CONNECT`, `http://` ones too, never in absolute
        /// form. Not part of ``httpClientConfiguration``, which stays the direct client's.
        public var proxy: ProxyConfiguration? = nil
        /// TLS: trusted CAs, pinned keys, client certificate, minimum version, and (development only)
        /// skipping verification. Default: verify against the system store, TLS 1.2 or later.
        ///
        /// Becomes SwiftNIO SSL's `TLSConfiguration` (trust roots, certificate chain and key, minimum
        /// version, certificate verification); files are read when the configuration is built, and one
        /// that cannot be read fails every request with `tls`. Pins are checked right after the
        /// handshake, before the connection serves any request (through AsyncHTTPClient's connection
        /// initializers, which ``httpClientConfiguration`` therefore sets when keys are pinned).
        public var tls: TLSOptions

        /// Creates a configuration.
        /// - Parameters:
        ///   - maxConnectionsPerHost: HTTP/1.1 connections per host.
        ///   - connectTimeout: Limit for establishing a connection.
        ///   - connectionIdleTimeout: How long idle connections stay pooled.
        ///   - idleTimeout: How long the server may send nothing during an exchange (`nil`: no limit).
        ///   - decodesContentEncoding: Whether gzip/deflate bodies are decoded.
        ///   - httpVersion: The HTTP version policy.
        ///   - tls: The TLS options.
        public init(
            maxConnectionsPerHost: Int = Self.defaultMaxConnectionsPerHost,
            connectTimeout: Duration = .seconds(30),
            connectionIdleTimeout: Duration = .seconds(60),
            idleTimeout: Duration? = IdleTimeout.default,
            decodesContentEncoding: Bool = true,
            httpVersion: HTTPVersion = .automatic,
            tls: TLSOptions = TLSOptions()
        ) {
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.connectTimeout = connectTimeout
            self.connectionIdleTimeout = connectionIdleTimeout
            self.idleTimeout = idleTimeout
            self.decodesContentEncoding = decodesContentEncoding
            self.httpVersion = httpVersion
            self.tls = tls
        }

        /// The AsyncHTTPClient configuration these settings produce.
        ///
        /// Use it to build an `HTTPClient` of your own with the same behaviour, adjust what this
        /// struct does not cover (proxies), and pass it to ``AsyncHTTPClientTransport/init(wrapping:contentDecoding:)``.
        /// When a TLS file named in ``tls`` cannot be read, the configuration fails closed (that trust
        /// root or client certificate is missing); an owned transport reports the cause on every request.
        public var httpClientConfiguration: HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: TimeAmount(connectTimeout), read: idleTimeout.map { TimeAmount($0) }),
                connectionPool: .init(
                    idleTimeout: TimeAmount(connectionIdleTimeout),
                    concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, maxConnectionsPerHost)
                ),
                decompression: .disabled  // the transport decodes (see decodesContentEncoding)
            )
            configuration.connectionPool.retryConnectionEstablishment = false
            // The chain traces (SwitchyardTracing: one span per call and one per attempt, whatever the
            // transport); AsyncHTTPClient's own span per request, taken from a bootstrapped global
            // tracer, would add a third beside them.
            configuration.tracing.tracer = nil
            configuration.httpVersion = httpVersion == .automatic ? .automatic : .http1Only
            AsyncHTTPClientTLS(tls).apply(to: &configuration)
            return configuration
        }
    }

    /// The `Accept-Encoding` an owned client sends when decoding is on and the request has none.
    public static let defaultAcceptEncoding = "gzip, deflate"
}

extension TimeAmount {
    /// The same span as `duration`, saturating at the representable range.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else {
            self = .nanoseconds(seconds < 0 ? .min : .max)
            return
        }
        self = .nanoseconds(scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }
}
