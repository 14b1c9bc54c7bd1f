// swift-tools-version:6.2
// 6.2: swift-log, swift-metrics (both needed by the core), async-http-client and swift-openapi-runtime
// declare tools 6.2.
import PackageDescription

/// A product of a package dependency that only a target built with `trait` links. SwiftPM leaves a
/// dependency unresolved when every use of it is guarded by a disabled trait, so an app that uses only
/// `Switchyard` and `SwitchyardCurl` resolves neither SwiftNIO nor swift-crypto nor the other integrations.
func product(_ name: String, _ package: String, trait: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: [trait]))
}

/// What the kernel's tests and the tests of the chain's own plugins (standard links, traffic) use.
let chainTestDependencies: [Target.Dependency] = [
    "SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", "SwitchyardTransfers",
    "SwitchyardActivity",
    "Switchyard", "SwitchyardTesting", "SwitchyardConformance", "SwitchyardTestSupport", "SwitchyardCurl",
    "SwitchyardTestServer",
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "MetricsTestKit", package: "swift-metrics")
]

/// What the tests of observability, tracing and the service-lifecycle integration use.
let observabilityTestDependencies: [Target.Dependency] = ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", "SwitchyardTransfers", "SwitchyardActivity",
    "Switchyard", "SwitchyardTracing", "SwitchyardServiceLifecycle", "SwitchyardTestServer",
    "SwitchyardTesting", "SwitchyardConformance", "SwitchyardTestSupport",
    "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
    .product(name: "HTTPTypes", package: "swift-http-types"),
    product("Tracing", "swift-distributed-tracing", trait: "Tracing"),
    product("InMemoryTracing", "swift-distributed-tracing", trait: "Tracing"),
    product("ServiceLifecycle", "swift-service-lifecycle", trait: "ServiceLifecycle"),
    product("AsyncHTTPClient", "async-http-client", trait: "AsyncHTTPClient"),
    .product(name: "Metrics", package: "swift-metrics"),
    .product(name: "MetricsTestKit", package: "swift-metrics"),
    .product(name: "Logging", package: "swift-log")
]

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        .library(name: "SwitchyardCore", targets: ["SwitchyardCore"]),
        .library(name: "SwitchyardStandardLinks", targets: ["SwitchyardStandardLinks"]),
        .library(name: "SwitchyardPopUps", targets: ["SwitchyardPopUps"]),
        .library(name: "SwitchyardHeaders", targets: ["SwitchyardHeaders"]),
        .library(name: "SwitchyardTransportKit", targets: ["SwitchyardTransportKit"]),
        .library(name: "SwitchyardCurl", targets: ["SwitchyardCurl"]),
        .library(name: "SwitchyardURLSession", targets: ["SwitchyardURLSession"]),
        .library(name: "SwitchyardAsyncHTTPClient", targets: ["SwitchyardAsyncHTTPClient"]),
        .library(name: "SwitchyardTesting", targets: ["SwitchyardTesting"]),
        .library(name: "SwitchyardConformance", targets: ["SwitchyardConformance"]),
        .library(name: "SwitchyardTestServer", targets: ["SwitchyardTestServer"]),
        .library(name: "SwitchyardActivity", targets: ["SwitchyardActivity"]),
        .library(name: "SwitchyardTransfers", targets: ["SwitchyardTransfers"]),
        .library(name: "SwitchyardObservability", targets: ["SwitchyardObservability"]),
        .library(name: "SwitchyardTraffic", targets: ["SwitchyardTraffic"]),
        .library(name: "SwitchyardAPI", targets: ["SwitchyardAPI"]),
        .library(name: "SwitchyardSigning", targets: ["SwitchyardSigning"]),
        .library(name: "SwitchyardExperiments", targets: ["SwitchyardExperiments"]),
        .library(name: "SwitchyardQuota", targets: ["SwitchyardQuota"]),
        .library(name: "SwitchyardAuth", targets: ["SwitchyardAuth"]),
        .library(name: "SwitchyardCache", targets: ["SwitchyardCache"]),
        .library(name: "SwitchyardPostgres", targets: ["SwitchyardPostgres"]),
        .library(name: "SwitchyardCompression", targets: ["SwitchyardCompression"]),
        .library(name: "SwitchyardCookies", targets: ["SwitchyardCookies"]),
        .library(name: "SwitchyardCookieStorage", targets: ["SwitchyardCookieStorage"]),
        .library(name: "SwitchyardStreams", targets: ["SwitchyardStreams"]),
        .library(name: "SwitchyardWebSocket", targets: ["SwitchyardWebSocket"]),
        .library(name: "SwitchyardOpenAPI", targets: ["SwitchyardOpenAPI"]),
        .library(name: "SwitchyardTracing", targets: ["SwitchyardTracing"]),
        .library(name: "SwitchyardServiceLifecycle", targets: ["SwitchyardServiceLifecycle"]),
        .executable(name: "yard", targets: ["yard"])
    ],
    // All off by default: an app enables the ones whose products it uses, e.g.
    // `.package(url: …, from: …, traits: ["AsyncHTTPClient"])`. `make build|test|demo` enable them all.
    // The core, SwitchyardCurl, SwitchyardURLSession, SwitchyardAPI, SwitchyardAuth, SwitchyardExperiments
    // and SwitchyardTesting need none.
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "SwitchyardAsyncHTTPClient (async-http-client, SwiftNIO, NIOSSL, NIOHTTP2, swift-crypto)."
        ),
        .trait(name: "OpenAPI", description: "SwitchyardOpenAPI (swift-openapi-runtime)."),
        .trait(name: "WebSocket", description: "SwitchyardWebSocket (SwiftNIO's WebSocket codec, NIOSSL, swift-crypto)."),
        .trait(name: "Tracing", description: "SwitchyardTracing (swift-distributed-tracing)."),
        .trait(name: "ServiceLifecycle", description: "SwitchyardServiceLifecycle (swift-service-lifecycle)."),
        .trait(name: "Cache", description: "SwitchyardCache (swift-crypto: SHA-256 of disk entries)."),
        .trait(name: "Signing", description: "SwitchyardSigning (swift-crypto: HMAC)."),
        .trait(
            name: "Postgres",
            description: "SwitchyardPostgres (postgres-nio): the cache, rate limits, token refresh and breakers a fleet shares; enables Cache.",
            enabledTraits: ["Cache"]
        ),
        .trait(
            name: "TestServer",
            description: "SwitchyardTestServer and SwitchyardConformance (SwiftNIO, NIOSSL, NIOHTTP2, swift-certificates, swift-crypto)."
        ),
        .trait(
            name: "Tools",
            description: "The yard command line (swift-argument-parser); enables AsyncHTTPClient, Cache, Postgres and TestServer.",
            enabledTraits: ["AsyncHTTPClient", "Cache", "TestServer", "WebSocket", "Postgres"]
        ),
        .default(enabledTraits: [])
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
        // `swift package generate-documentation --target X` (scripts/build-docs.sh builds every catalog). No
        // target uses it, so packages that depend on Switchyard never resolve it (no trait needed).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2")
    ],
    targets: [
        // MARK: - Kernel and standard links
        // The kernel: client, chain, plugins and their extension points, the transport contract, bodies,
        // errors, events.
        .target(
            name: "SwitchyardCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),

        // The umbrella: the kernel and the standard links re-exported, so that `import Switchyard`
        // and a transport make a first program.
        .target(
            name: "Switchyard",
            dependencies: [
                "SwitchyardCore", "SwitchyardStandardLinks", "SwitchyardTransportKit", "SwitchyardPopUps",
                "SwitchyardHeaders", .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // The standard links: status validation, the response size limit, redirects and retry, as
        // settings of ClientConfiguration; a feature module that reads their options depends on this
        // module, not on the umbrella.
        .target(
            name: "SwitchyardStandardLinks",
            dependencies: [
                "SwitchyardCore", "SwitchyardTransportKit", "SwitchyardPopUps",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ],
            path: "Plugins/StandardLinks"
        ),
        // Failures as messages for the user: a pop-up event after each failure, its texts per
        // department scope, identical ones coalesced; part of the standard configuration.
        .target(
            name: "SwitchyardPopUps",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/PopUps"
        ),
        // Header rules per department scope, their conflicts reported.
        .target(
            name: "SwitchyardHeaders",
            dependencies: ["SwitchyardCore", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/Headers"
        ),

        // zlib, for decoding gzip/deflate response bodies identically on every transport.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"]), .yum(["zlib-devel"])]
        ),

        // brotli and zstd, for SwitchyardCompression (br and zstd bodies) and the test server's fixtures.
        // Linux only: on Apple platforms they are not system libraries (see SwitchyardCompression).
        .systemLibrary(
            name: "CBrotli",
            path: "Sources/CBrotli",
            pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"]), .brew(["brotli"]), .yum(["brotli-devel"])]
        ),
        .systemLibrary(
            name: "CZstd",
            path: "Sources/CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"]), .yum(["libzstd-devel"])]
        ),

        // MARK: - Transports
        // What transports are built from: response streams, upload pumps, failure mapping, TLS and proxy
        // options, connection events, gzip/deflate content coding (zlib, identical on every transport).
        .target(
            name: "SwitchyardTransportKit",
            dependencies: ["SwitchyardCore", "CZlib", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Transports/Kit"
        ),
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [
                .apt(["libcurl4-openssl-dev"]),
                .brew(["curl"]),
                .yum(["libcurl-devel"])
            ]
        ),
        .target(
            name: "SwitchyardCurl",
            dependencies: ["CCurl", "SwitchyardCore", "SwitchyardTransportKit", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Transports/Curl"
        ),

        .target(
            name: "SwitchyardURLSession",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Transports/URLSession"
        ),
        // Trait AsyncHTTPClient.
        .target(
            name: "SwitchyardAsyncHTTPClient",
            dependencies: [
                "SwitchyardCore", "SwitchyardTransportKit",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                product("AsyncHTTPClient", "async-http-client", trait: "AsyncHTTPClient"),
                product("NIOCore", "swift-nio", trait: "AsyncHTTPClient"),
                product("NIOHTTP1", "swift-nio", trait: "AsyncHTTPClient"),
                product("NIOHTTPCompression", "swift-nio-extras", trait: "AsyncHTTPClient"),
                product("NIOSSL", "swift-nio-ssl", trait: "AsyncHTTPClient"),
                product("NIOPosix", "swift-nio", trait: "AsyncHTTPClient"),
                product("Crypto", "swift-crypto", trait: "AsyncHTTPClient"),
                // Recognises HTTP/2 stream resets (`NIOHTTP2Errors.StreamClosed`): refused streams are retryable.
                product("NIOHTTP2", "swift-nio-http2", trait: "AsyncHTTPClient"),
                // The header block of a request's HEADERS frame, which the connection observer reads.
                product("NIOHPACK", "swift-nio-http2", trait: "AsyncHTTPClient")
            ],
            path: "Transports/AsyncHTTPClient"
        ),

        // MARK: - Features
        // The phases calls, transfers and paged lists share (notStarted … succeeded, noData, paused).
        .target(
            name: "SwitchyardActivity",
            dependencies: ["SwitchyardCore"],
            path: "Layers/Activity"
        ),
        // Resumable downloads to a file, uploads from a file, transfer progress: on the kernel only.
        .target(
            name: "SwitchyardTransfers",
            dependencies: ["SwitchyardCore", "SwitchyardActivity", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Layers/Transfers"
        ),

        // Traffic control as plugins: coalescing, concurrency limits and priorities, circuit breaker,
        // tracking, connectivity, batches.
        .target(
            name: "SwitchyardTraffic",
            dependencies: ["SwitchyardCore", "SwitchyardStandardLinks", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/Traffic"
        ),
        // Timing statistics (HdrHistogram), OpenTelemetry-named metrics (swift-metrics), HAR files and
        // logging, as plugins.
        .target(
            name: "SwitchyardObservability",
            dependencies: [
                "SwitchyardCore", "SwitchyardHeaders",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Histogram", package: "hdrhistogram-swift")
            ],
            path: "Plugins/Observability"
        ),

        // MARK: - Application layer
        // One JSON value type (Codable, compact text) with no dependencies, for the app layer, `yard`
        // and the loopback test server (which depends on neither the core nor the app layer).
        .target(name: "SwitchyardJSON"),
        // Endpoints, decoding at JSON paths, call handles and states, paged lists: built on the core only.
        // With trait Cache it also offers cache-then-network calls and pages (SwitchyardCache).
        .target(
            name: "SwitchyardAPI",
            dependencies: [
                "SwitchyardTraffic", "SwitchyardTransfers", "SwitchyardCore", "SwitchyardStandardLinks", "SwitchyardJSON",
                "SwitchyardTransportKit", "SwitchyardPopUps", "SwitchyardActivity",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .target(name: "SwitchyardCache", condition: .when(traits: ["Cache"]))
            ],
            path: "Layers/API"
        ),

        // MARK: - Example department plugins
        // Trait Signing.
        .target(
            name: "SwitchyardSigning",
            dependencies: [
                "SwitchyardCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                product("Crypto", "swift-crypto", trait: "Signing")
            ],
            path: "Plugins/Signing"
        ),
        .target(
            name: "SwitchyardExperiments",
            dependencies: ["SwitchyardCore", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/Experiments"
        ),
        // A quota of request units per window: its own request option, error kind and event.
        .target(
            name: "SwitchyardQuota",
            dependencies: ["SwitchyardCore", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/Quota"
        ),
        // Bearer credentials with one refresh for many concurrent 401s.
        .target(
            name: "SwitchyardAuth",
            dependencies: ["SwitchyardCore", "SwitchyardPopUps", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/Auth"
        ),
        // A cookie jar (RFC 6265bis) in memory or in a file several processes share, with partitions.
        .target(
            name: "SwitchyardCookies",
            dependencies: ["SwitchyardCore", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/Cookies"
        ),
        // A cookie store kept in Foundation's HTTPCookieStorage (FoundationNetworking on Linux), for apps
        // whose other Foundation users share the jar; its own module so the jar does not link it.
        .target(
            name: "SwitchyardCookieStorage",
            dependencies: ["SwitchyardCookies"],
            path: "Plugins/CookieStorage"
        ),
        // Server-sent events with reconnection, and JSON-lines bodies.
        .target(
            name: "SwitchyardStreams",
            dependencies: ["SwitchyardCore", "SwitchyardStandardLinks", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Plugins/Streams"
        ),
        // WebSocket connections (RFC 6455) on SwiftNIO, their handshakes through a client chain. Trait WebSocket.
        .target(
            name: "SwitchyardWebSocket",
            dependencies: [
                "SwitchyardCore", "SwitchyardStandardLinks",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                product("NIOCore", "swift-nio", trait: "WebSocket"),
                product("NIOPosix", "swift-nio", trait: "WebSocket"),
                product("NIOHTTP1", "swift-nio", trait: "WebSocket"),
                product("NIOWebSocket", "swift-nio", trait: "WebSocket"),
                product("NIOSSL", "swift-nio-ssl", trait: "WebSocket"),
                product("Crypto", "swift-crypto", trait: "WebSocket"),
                "CZlib",
            ],
            path: "Plugins/WebSocket"
        ),
        // The HTTP cache (RFC 9111) with memory and disk stores; SHA-256 checks disk entries. Trait Cache.
        .target(
            name: "SwitchyardCache",
            dependencies: [
                "SwitchyardCore", "SwitchyardStandardLinks",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                product("Crypto", "swift-crypto", trait: "Cache")
            ],
            path: "Plugins/Cache"
        ),
        // State a fleet of processes shares through PostgreSQL: one token refresh, rate-limit buckets,
        // circuit breakers and an HTTP cache for the fleet. Trait Postgres.
        .target(
            name: "SwitchyardPostgres",
            dependencies: [
                "SwitchyardCore", "SwitchyardAuth", "SwitchyardTraffic", "SwitchyardCache",
                product("PostgresNIO", "postgres-nio", trait: "Postgres"),
                product("NIOCore", "swift-nio", trait: "Postgres"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log")
            ],
            path: "Plugins/Postgres"
        ),
        // br and zstd response decoding on every transport, and zstd request compression, as codecs
        // for the kernel's content-decoder extension point; links libbrotli and libzstd (Linux only).
        .target(
            name: "SwitchyardCompression",
            dependencies: [
                "SwitchyardCore", "SwitchyardTransportKit",
                .target(name: "CBrotli", condition: .when(platforms: [.linux])),
                .target(name: "CZstd", condition: .when(platforms: [.linux]))
            ],
            path: "Plugins/Compression"
        ),

        // MARK: - Ecosystem bridges
        // A Switchyard client as a swift-openapi-runtime `ClientTransport`, and any `ClientMiddleware`
        // as a Switchyard interceptor. Trait OpenAPI.
        .target(
            name: "SwitchyardOpenAPI",
            dependencies: [
                "SwitchyardCore", "SwitchyardStandardLinks",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                product("OpenAPIRuntime", "swift-openapi-runtime", trait: "OpenAPI")
            ],
            path: "Layers/OpenAPI"
        ),

        // Spans per call and per attempt (OpenTelemetry HTTP client conventions) through
        // swift-distributed-tracing, with W3C trace context injected into each attempt. Trait Tracing.
        .target(
            name: "SwitchyardTracing",
            dependencies: ["SwitchyardObservability", 
                "SwitchyardCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                product("Tracing", "swift-distributed-tracing", trait: "Tracing")
            ],
            path: "Plugins/Tracing"
        ),
        // A transport as a swift-service-lifecycle `Service`: shut down on graceful shutdown. Trait ServiceLifecycle.
        .target(
            name: "SwitchyardServiceLifecycle",
            dependencies: [
                "SwitchyardCore",
                product("ServiceLifecycle", "swift-service-lifecycle", trait: "ServiceLifecycle")
            ],
            path: "Layers/ServiceLifecycle"
        ),

        // MARK: - Test support
        // Stub, routed-stub, recording and replaying transports: the core only, no server, no Swift Testing.
        .target(
            name: "SwitchyardTesting",
            dependencies: ["SwitchyardCore", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        // Trait TestServer.
        .target(
            name: "SwitchyardTestServer",
            dependencies: [
                "CZlib",
                // br and zstd fixtures and request bodies (`/coded/…`, `/gunzip`).
                .target(name: "CBrotli", condition: .when(platforms: [.linux])),
                .target(name: "CZstd", condition: .when(platforms: [.linux])),
                "SwitchyardJSON",
                product("Crypto", "swift-crypto", trait: "TestServer"),
                product("NIOCore", "swift-nio", trait: "TestServer"),
                product("NIOPosix", "swift-nio", trait: "TestServer"),
                product("NIOConcurrencyHelpers", "swift-nio", trait: "TestServer"),
                product("NIOHTTP1", "swift-nio", trait: "TestServer"),
                // The `/ws/{mode}` peers.
                product("NIOWebSocket", "swift-nio", trait: "TestServer"),
                // HTTPS mode and the certificates generated for it at test time.
                product("NIOSSL", "swift-nio-ssl", trait: "TestServer"),
                product("X509", "swift-certificates", trait: "TestServer"),
                product("SwiftASN1", "swift-asn1", trait: "TestServer"),
                // HTTP/2 over TLS (ALPN `h2`), each stream served by the HTTP/1.1 route handling.
                product("NIOHTTP2", "swift-nio-http2", trait: "TestServer"),
                // Raw frames for the HTTP/2-only fault routes (`/h2/…`: stream resets, GOAWAY).
                product("NIOHPACK", "swift-nio-http2", trait: "TestServer")
            ]
        ),
        // The C library allocator's figures (bytes in use), for the soak's memory readings.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The transport conformance suite (Swift Testing), its probes and the soak engine, all on the
        // loopback server. Trait TestServer.
        .target(
            name: "SwitchyardConformance",
            dependencies: [
                "Switchyard",
                "SwitchyardTestServer",
                "CMalloc",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                product("Crypto", "swift-crypto", trait: "TestServer")
            ]
        ),

        // MARK: - Command line
        // Trait Tools.
        .executableTarget(
            name: "yard",
            dependencies: ["SwitchyardTraffic", "SwitchyardObservability", "SwitchyardTransfers",
                "Switchyard",
                "SwitchyardCurl",
                "SwitchyardURLSession",
                "SwitchyardAsyncHTTPClient",
                "SwitchyardAPI",
                "SwitchyardJSON",
                "SwitchyardAuth",
                "SwitchyardCache",
                "SwitchyardPostgres",
                "SwitchyardCookies",
                "SwitchyardStreams",
                "SwitchyardWebSocket",
                "SwitchyardTestServer",
                // The soak engine (`yard bench --soak`), shared with the soak tests.
                "SwitchyardConformance",
                product("ArgumentParser", "swift-argument-parser", trait: "Tools"),
                product("Crypto", "swift-crypto", trait: "Tools"),
                // `yard bench --wrap-client`: an HTTPClient of its own, wrapped as an app wraps its client.
                product("AsyncHTTPClient", "async-http-client", trait: "Tools"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log")
            ],
            exclude: ["README.md"]
        ),

        // MARK: - Tests
        // Every target below needs every trait: `swift test --enable-all-traits` (`make test`). Their uses of
        // trait-guarded packages are guarded too, or SwiftPM would resolve those packages for every app.

        // Helpers shared by the test targets (scoped servers and clients, echo decoding, captured logs
        // and events, process figures); a regular target because test targets cannot depend on each other.
        .target(
            name: "SwitchyardTestSupport",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", "SwitchyardTransfers", "SwitchyardActivity",
                "Switchyard", "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                "SwitchyardTestServer", "SwitchyardConformance",
                .product(name: "Logging", package: "swift-log"),
                product("Crypto", "swift-crypto", trait: "TestServer")
            ],
            path: "Tests/SwitchyardTestSupport"
        ),
        // The core and its built-in interceptors: over in-memory transports, and over curl and the
        // loopback server where the wire matters.
        .testTarget(
            name: "SwitchyardCoreTests",
            dependencies: chainTestDependencies
        ),
        // The transport kit (streams, uploads, TLS, proxies, content coding), over curl and the loopback server.
        .testTarget(
            name: "SwitchyardTransportKitTests",
            dependencies: chainTestDependencies
        ),
        .testTarget(
            name: "SwitchyardTransfersTests",
            dependencies: chainTestDependencies + ["SwitchyardAPI"]
        ),
        .testTarget(
            name: "SwitchyardStandardLinksTests",
            dependencies: chainTestDependencies
        ),
        .testTarget(
            name: "SwitchyardTrafficTests",
            dependencies: chainTestDependencies
        ),
        .testTarget(
            name: "SwitchyardPopUpsTests",
            dependencies: chainTestDependencies
        ),
        .testTarget(
            name: "SwitchyardHeadersTests",
            dependencies: chainTestDependencies
        ),
        .testTarget(
            name: "SwitchyardCurlTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", 
                "Switchyard", "SwitchyardCurl", "SwitchyardTestServer", "SwitchyardConformance", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "SwitchyardURLSessionTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", 
                "Switchyard", "SwitchyardURLSession", "SwitchyardTestServer", "SwitchyardConformance",
                "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "SwitchyardAsyncHTTPClientTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", 
                "Switchyard", "SwitchyardAsyncHTTPClient", "SwitchyardTestServer", "SwitchyardConformance",
                "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                product("AsyncHTTPClient", "async-http-client", trait: "AsyncHTTPClient")
            ]
        ),
        .testTarget(
            name: "SwitchyardAPITests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", "SwitchyardTransfers", "SwitchyardActivity",
                "Switchyard", "SwitchyardAPI", "SwitchyardTesting", "SwitchyardTestSupport", "SwitchyardTestServer",
                "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient", "SwitchyardCache",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "SwitchyardTestingTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", 
                "Switchyard", "SwitchyardTesting", "SwitchyardTestServer", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "TransportConformanceTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", 
                "Switchyard", "SwitchyardTesting", "SwitchyardConformance", "SwitchyardTestServer",
                "SwitchyardTestSupport", "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // The shared stores, against the PostgreSQL server `make test` starts (SWITCHYARD_POSTGRES_URL).
        .testTarget(
            name: "SwitchyardPostgresTests",
            dependencies: chainTestDependencies + ["SwitchyardPostgres", "SwitchyardAuth", "CSpawn"]
        ),
        // The example department plugins, one test target each.
        .testTarget(
            name: "SwitchyardQuotaTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardQuota", "SwitchyardTraffic", "SwitchyardObservability",
                "Switchyard", "SwitchyardCurl", "SwitchyardTestServer", "SwitchyardConformance",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "SwitchyardSigningTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardSigning", "SwitchyardTraffic", "SwitchyardObservability",
                "Switchyard", "SwitchyardCurl", "SwitchyardTestServer", "SwitchyardConformance",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "SwitchyardExperimentsTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardExperiments", "SwitchyardTraffic", "SwitchyardObservability",
                "Switchyard", "SwitchyardCurl", "SwitchyardTestServer", "SwitchyardConformance",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // The auth plugin against the loopback server, on every transport.
        .testTarget(
            name: "SwitchyardAuthTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", 
                "Switchyard", "SwitchyardAuth", "SwitchyardTestServer", "SwitchyardConformance", "SwitchyardTestSupport",
                "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // The cookie jar: parsing, the storage model, stores, curl's file format, and the plugin on every transport.
        .testTarget(
            name: "SwitchyardCookiesTests",
            dependencies: ["Switchyard", "SwitchyardCookies", "SwitchyardCookieStorage", "SwitchyardCurl", "SwitchyardTestServer", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "SwitchyardCookieStorageTests",
            dependencies: ["Switchyard", "SwitchyardCookies", "SwitchyardCookieStorage", "SwitchyardCurl", "SwitchyardTestServer", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(name: "SwitchyardJSONTests", dependencies: ["SwitchyardJSON"]),
        .testTarget(name: "SwitchyardActivityTests", dependencies: ["SwitchyardActivity", "SwitchyardCore"]),
        // Server-sent events and JSON lines: the parser, reconnection against the loopback server, every transport.
        .testTarget(
            name: "SwitchyardStreamsTests",
            dependencies: ["Switchyard", "SwitchyardStreams", "SwitchyardCurl", "SwitchyardTestServer", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // WebSocket connections against the loopback server's peers.
        .testTarget(
            name: "SwitchyardWebSocketTests",
            dependencies: ["Switchyard", "SwitchyardWebSocket", "SwitchyardTestServer", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // br and zstd response decoding and request compression (SwitchyardCompression) on every
        // transport, and its codecs.
        .testTarget(
            name: "SwitchyardCompressionTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardConformance", "Switchyard", "SwitchyardCompression", "SwitchyardCurl", "SwitchyardURLSession",
                "SwitchyardAsyncHTTPClient", "SwitchyardTestServer", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        .testTarget(
            name: "SwitchyardCacheTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", 
                "Switchyard", "SwitchyardCache", "SwitchyardAPI", "SwitchyardTestServer", "SwitchyardTestSupport",
                "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types")
            ]
        ),
        // The OpenAPI bridge: a generated-style client over the full chain, on curl and AsyncHTTPClient.
        .testTarget(
            name: "SwitchyardOpenAPITests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", 
                "Switchyard", "SwitchyardOpenAPI", "SwitchyardTestServer", "SwitchyardConformance",
                "SwitchyardTestSupport", "SwitchyardCurl", "SwitchyardAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                product("OpenAPIRuntime", "swift-openapi-runtime", trait: "OpenAPI")
            ]
        ),
        // Tracing, OpenTelemetry-named metrics and service lifecycle against the loopback server.
        .testTarget(name: "SwitchyardObservabilityTests", dependencies: observabilityTestDependencies),
        .testTarget(name: "SwitchyardTracingTests", dependencies: observabilityTestDependencies),
        .testTarget(name: "SwitchyardServiceLifecycleTests", dependencies: observabilityTestDependencies),
        .testTarget(
            name: "SwitchyardTestServerTests",
            dependencies: ["SwitchyardTestServer", "SwitchyardTestSupport"]
        ),
        // Documentation examples that are compiled but never run (the conformance suite over a
        // wrapped curl, which TransportConformanceTests already runs): a library no test links.
        .target(
            name: "DocumentationExamples",
            dependencies: ["Switchyard", "SwitchyardCurl", "SwitchyardConformance"],
            path: "Tests/DocumentationExamples"
        ),
        // Every code example of README.md and of the DocC articles, compiled (and run where cheap), and
        // a test that finds each documented ```swift block verbatim in a test file.
        .testTarget(
            name: "DocumentationExamplesTests",
            dependencies: ["SwitchyardCore", "SwitchyardTransportKit", "SwitchyardTraffic", "SwitchyardObservability", "SwitchyardTransfers", "SwitchyardActivity",
                "Switchyard", "SwitchyardCurl", "SwitchyardURLSession", "SwitchyardAsyncHTTPClient",
                "SwitchyardAPI", "SwitchyardCache", "SwitchyardAuth", "SwitchyardSigning", "SwitchyardExperiments",
                "SwitchyardCookies", "SwitchyardStreams",
                "SwitchyardTesting", "SwitchyardConformance", "SwitchyardTestServer", "SwitchyardTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                product("AsyncHTTPClient", "async-http-client", trait: "AsyncHTTPClient")
            ]
        ),
        .testTarget(
            name: "YardTests",
            dependencies: ["yard", "SwitchyardTestServer", "SwitchyardTestSupport", "CSpawn"]
        ),
        // posix_spawn for the yard tests, in C because the close-every-descriptor action is a GNU extension.
        .target(name: "CSpawn", path: "Tests/CSpawn")
    ]
)

for target in package.targets where target.type != .system && target.name != "CSpawn" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
