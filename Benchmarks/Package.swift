// swift-tools-version:6.1
// Chain and decoding micro-benchmarks, kept in their own package so the library's dependency graph stays clean.
// Run: cd Benchmarks && swift package benchmark
import PackageDescription

let package = Package(
    name: "SwitchyardBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Switchyard", path: "../", traits: ["Cache", "TestServer"]),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "ChainBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "SwitchyardObservability", package: "Switchyard"),
                .product(name: "SwitchyardTraffic", package: "Switchyard"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/ChainBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DecodeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SwitchyardAPI", package: "Switchyard"),
            ],
            path: "Benchmarks/DecodeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CacheBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "SwitchyardCache", package: "Switchyard"),
                .product(name: "SwitchyardCurl", package: "Switchyard"),
                .product(name: "SwitchyardTestServer", package: "Switchyard"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/CacheBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TrafficBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "SwitchyardTraffic", package: "Switchyard"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/TrafficBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
