// swift-tools-version:6.1
// An app that depends on Switchyard by path, as the README's install section tells a user to,
// with the traits of `SWITCHYARD_TRAITS` (comma-separated; empty: none) and every product they
// unlock. `scripts/check-consumer.sh` builds it with a plain `swift build` for each trait.
import Foundation
import PackageDescription

let traits = Set((Context.environment["SWITCHYARD_TRAITS"] ?? "").split(separator: ",").map(String.init))
/// The products an app may use without a trait, and those each trait unlocks.
let products: [(product: String, trait: String?)] = [
    ("Switchyard", nil), ("SwitchyardCore", nil), ("SwitchyardCurl", nil), ("SwitchyardURLSession", nil),
    ("SwitchyardTesting", nil), ("SwitchyardTransfers", nil), ("SwitchyardObservability", nil),
    ("SwitchyardTraffic", nil), ("SwitchyardAPI", nil), ("SwitchyardExperiments", nil), ("SwitchyardQuota", nil),
    ("SwitchyardAuth", nil), ("SwitchyardCompression", nil), ("SwitchyardCookies", nil),
    ("SwitchyardCookieStorage", nil), ("SwitchyardStreams", nil), ("SwitchyardPopUps", nil), ("SwitchyardHeaders", nil),
    ("SwitchyardTransportKit", nil), ("SwitchyardActivity", nil), ("SwitchyardPostgres", "Postgres"),
    ("SwitchyardAsyncHTTPClient", "AsyncHTTPClient"), ("SwitchyardOpenAPI", "OpenAPI"),
    ("SwitchyardWebSocket", "WebSocket"), ("SwitchyardTracing", "Tracing"),
    ("SwitchyardServiceLifecycle", "ServiceLifecycle"), ("SwitchyardCache", "Cache"), ("SwitchyardSigning", "Signing"),
    ("SwitchyardTestServer", "TestServer"), ("SwitchyardConformance", "TestServer")
]
/// A path dependency's package identity is its folder's name, whatever the clone is called.
let switchyardFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let switchyard = switchyardFolder.lastPathComponent

let package = Package(
    name: "ConsumerApp",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    dependencies: [.package(path: switchyardFolder.path, traits: Set(traits.map { Package.Dependency.Trait(name: $0) }))],
    targets: [
        .executableTarget(
            name: "ConsumerApp",
            dependencies: products.filter { $0.trait.map(traits.contains) ?? true }.map {
                .product(name: $0.product, package: switchyard)
            },
            // `canImport` would see a module left in the shared scratch folder by an earlier set.
            swiftSettings: traits.sorted().map { .define("TRAIT_\($0)") }
        )
    ]
)
