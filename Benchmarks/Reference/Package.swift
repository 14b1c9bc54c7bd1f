// swift-tools-version:6.0
// The reference clients of Benchmarks/compare.sh: AsyncHTTPClient and URLSession used directly,
// with the load shape of `yard bench`, so a ratio compares the libraries, not the harnesses; and those
// of Benchmarks/streams.sh: an event stream read with AsyncHTTPClient, WebSocket echoes with NIOWebSocket.
import PackageDescription

let package = Package(
    name: "ReferenceClients",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(name: "LoadShape", path: "Sources/LoadShape"),
        .executableTarget(
            name: "ahc-load",
            dependencies: ["LoadShape", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            path: "Sources/ahc-load"
        ),
        .executableTarget(
            name: "ahc-sse-load",
            dependencies: [
                "LoadShape", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio")
            ],
            path: "Sources/ahc-sse-load"
        ),
        .executableTarget(
            name: "nio-ws-load",
            dependencies: [
                "LoadShape", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio")
            ],
            path: "Sources/nio-ws-load"
        ),
        .executableTarget(name: "urlsession-load", dependencies: ["LoadShape"], path: "Sources/urlsession-load"),
        .systemLibrary(name: "CLibcurl", path: "Sources/CLibcurl", pkgConfig: "libcurl"),
        .executableTarget(name: "curl-async-floor", dependencies: ["LoadShape", "CLibcurl"], path: "Sources/curl-async-floor"),
    ]
)
