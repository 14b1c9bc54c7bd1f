// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        .library(name: "SwitchyardCurl", targets: ["SwitchyardCurl"]),
        .library(name: "SwitchyardURLSession", targets: ["SwitchyardURLSession"]),
        .library(name: "SwitchyardAsyncHTTPClient", targets: ["SwitchyardAsyncHTTPClient"]),
        .library(name: "SwitchyardTesting", targets: ["SwitchyardTesting"]),
        .library(name: "SwitchyardTestServer", targets: ["SwitchyardTestServer"]),
        .library(name: "SwitchyardAPI", targets: ["SwitchyardAPI"]),
        .library(name: "SwitchyardSigning", targets: ["SwitchyardSigning"]),
        .library(name: "SwitchyardExperiments", targets: ["SwitchyardExperiments"]),
        .library(name: "SwitchyardAuth", targets: ["SwitchyardAuth"]),
        .library(name: "SwitchyardCache", targets: ["SwitchyardCache"]),
        .library(name: "SwitchyardOpenAPI", targets: ["SwitchyardOpenAPI"]),
        .library(name: "SwitchyardTracing", targets: ["SwitchyardTracing"]),
        .library(name: "SwitchyardServiceLifecycle", targets: ["SwitchyardServiceLifecycle"]),
        .executable(name: "yard", targets: ["yard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Crypto 3 and 4 both work (SHA-256 and HMAC only): an app whose other packages need crypto 4 still resolves.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        // `swift package generate-documentation --target X` (scripts/build-docs.sh builds every catalog).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // MARK: - Core
        .target(
            name: "Switchyard",
            dependencies: [
                "CZlib",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),

        // zlib, for decoding gzip/deflate response bodies identically on every transport.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"]), .yum(["zlib-devel"])]
        ),

        // MARK: - Transports
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [
                .apt(["libcurl4-openssl-dev"]),
                .brew(["curl"]),
                .yum(["libcurl-devel"]),
            ]
        ),
        .target(
            name: "SwitchyardCurl",
            dependencies: ["CCurl", "Switchyard", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),

        .target(
            name: "SwitchyardURLSession",
            dependencies: ["Switchyard", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        .target(
            name: "SwitchyardAsyncHTTPClient",
            dependencies: [
                "Switchyard",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Recognises HTTP/2 stream resets (`NIOHTTP2Errors.StreamClosed`): refused streams are retryable.
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]
        ),

        // MARK: - Application layer
        // Endpoints, decoding at JSON paths, call handles and states, paged lists: built on the core only.
        .target(
            name: "SwitchyardAPI",
            dependencies: ["Switchyard", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),

        // MARK: - Example department plugins
        .target(
            name: "SwitchyardSigning",
            dependencies: [
                "Switchyard",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Plugins/Signing"
        ),
        .target(
            name: "SwitchyardExperiments",
            dependencies: ["Switchyard", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/Experiments"
        ),
        // Bearer credentials with one refresh for many concurrent 401s.
        .target(
            name: "SwitchyardAuth",
            dependencies: ["Switchyard", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/Auth"
        ),
        // The HTTP cache (RFC 9111) with memory and disk stores; SHA-256 checks disk entries.
        .target(
            name: "SwitchyardCache",
            dependencies: [
                "Switchyard",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Plugins/Cache"
        ),

        // MARK: - Ecosystem bridges
        // A Switchyard client as a swift-openapi-runtime `ClientTransport`, and any `ClientMiddleware`
        // as a Switchyard interceptor.
        .target(
            name: "SwitchyardOpenAPI",
            dependencies: [
                "Switchyard",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),

        // Spans per call and per attempt (OpenTelemetry HTTP client conventions) through
        // swift-distributed-tracing, with W3C trace context injected into each attempt.
        .target(
            name: "SwitchyardTracing",
            dependencies: [
                "Switchyard",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Plugins/Tracing"
        ),
        // A transport as a swift-service-lifecycle `Service`: shut down on graceful shutdown.
        .target(
            name: "SwitchyardServiceLifecycle",
            dependencies: [
                "Switchyard",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: - Test support
        .target(
            name: "SwitchyardTestServer",
            dependencies: [
                "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // HTTPS mode and the certificates generated for it at test time.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                // HTTP/2 over TLS (ALPN `h2`), each stream served by the HTTP/1.1 route handling.
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                // Raw frames for the HTTP/2-only fault routes (`/h2/…`: stream resets, GOAWAY).
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ]
        ),
        // The C library allocator's figures (bytes in use), for the soak's memory readings.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .target(
            name: "SwitchyardTesting",
            dependencies: [
                "Switchyard",
                "SwitchyardTestServer",
                "CMalloc",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // MARK: - Command line
        .executableTarget(
            name: "yard",
            dependencies: [
                "Switchyard",
                "SwitchyardCurl",
                "SwitchyardURLSession",
                "SwitchyardAsyncHTTPClient",
                "SwitchyardAPI",
                "SwitchyardAuth",
                "SwitchyardCache",
                "SwitchyardTestServer",
                // The soak engine (`yard bench --soak`), shared with the soak tests.
                "SwitchyardTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: - Tests
        // Helpers shared by the test targets (scoped servers and clients, echo decoding, captured logs
        // and events, process figures); a regular target because test targets cannot depend on each other.
        .target(
            name: "SwitchyardTestSupport",
            dependencies: [
                "Switchyard", "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                "SwitchyardTestServer", "SwitchyardTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/SwitchyardTestSupport"
        ),
        // The core and its built-in interceptors: over in-memory transports, and over curl and the
        // loopback server where the wire matters.
        .testTarget(
            name: "SwitchyardTests",
            dependencies: [
                "Switchyard", "SwitchyardTesting", "SwitchyardTestSupport", "SwitchyardCurl", "SwitchyardTestServer",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "SwitchyardCurlTests",
            dependencies: [
                "Switchyard", "SwitchyardCurl", "SwitchyardTestServer", "SwitchyardTesting", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "SwitchyardURLSessionTests",
            dependencies: [
                "Switchyard", "SwitchyardURLSession", "SwitchyardTestServer", "SwitchyardTesting", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "SwitchyardAsyncHTTPClientTests",
            dependencies: [
                "Switchyard", "SwitchyardAsyncHTTPClient", "SwitchyardTestServer", "SwitchyardTesting", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "SwitchyardAPITests",
            dependencies: [
                "Switchyard", "SwitchyardAPI", "SwitchyardTesting", "SwitchyardTestSupport", "SwitchyardTestServer",
                "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "SwitchyardTestingTests",
            dependencies: [
                "Switchyard", "SwitchyardTesting", "SwitchyardTestServer", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "TransportConformanceTests",
            dependencies: [
                "Switchyard", "SwitchyardTesting", "SwitchyardTestServer", "SwitchyardTestSupport",
                "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "PluginTests",
            dependencies: [
                "Switchyard", "SwitchyardSigning", "SwitchyardExperiments", "SwitchyardCurl", "SwitchyardTestServer",
                "SwitchyardTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The auth plugin and request compression against the loopback server, on every transport.
        .testTarget(
            name: "SwitchyardAuthTests",
            dependencies: [
                "Switchyard", "SwitchyardAuth", "SwitchyardTestServer", "SwitchyardTesting", "SwitchyardTestSupport",
                "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Request body compression on the wire, on every transport.
        .testTarget(
            name: "RequestCompressionTests",
            dependencies: [
                "Switchyard", "SwitchyardTestServer", "SwitchyardTesting", "SwitchyardTestSupport",
                "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "CachePluginTests",
            dependencies: [
                "Switchyard", "SwitchyardCache", "SwitchyardAPI", "SwitchyardTestServer", "SwitchyardTestSupport",
                "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The OpenAPI bridge: a generated-style client over the full chain, on curl and AsyncHTTPClient.
        .testTarget(
            name: "SwitchyardOpenAPITests",
            dependencies: [
                "Switchyard", "SwitchyardOpenAPI", "SwitchyardTestServer", "SwitchyardTesting", "SwitchyardTestSupport",
                "SwitchyardCurl", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // Tracing, OpenTelemetry-named metrics and service lifecycle against the loopback server.
        .testTarget(
            name: "SwitchyardObservabilityTests",
            dependencies: [
                "Switchyard", "SwitchyardTracing", "SwitchyardServiceLifecycle", "SwitchyardTestServer",
                "SwitchyardTesting", "SwitchyardTestSupport",
                "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SwitchyardTestServerTests",
            dependencies: ["SwitchyardTestServer", "SwitchyardTestSupport"]
        ),
        // Documentation examples that are compiled but never run (the conformance suite over a
        // wrapped curl, which TransportConformanceTests already runs): a library no test links.
        .target(
            name: "DocumentationExamples",
            dependencies: ["Switchyard", "SwitchyardCurl", "SwitchyardTesting"],
            path: "Tests/DocumentationExamples"
        ),
        // Every code example of README.md and of the DocC articles, compiled (and run where cheap), and
        // a test that finds each documented ```swift block verbatim in a test file.
        .testTarget(
            name: "DocumentationExamplesTests",
            dependencies: [
                "Switchyard", "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                "SwitchyardAPI", "SwitchyardCache", "SwitchyardAuth", "SwitchyardSigning", "SwitchyardExperiments",
                "SwitchyardTesting", "SwitchyardTestServer", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "YardTests",
            dependencies: ["yard", "SwitchyardTestServer", "SwitchyardTestSupport", "CSpawn"]
        ),
        // posix_spawn for the yard tests, in C because the close-every-descriptor action is a GNU extension.
        .target(name: "CSpawn", path: "Tests/CSpawn"),
    ]
)

for target in package.targets where target.type != .system && target.name != "CSpawn" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
