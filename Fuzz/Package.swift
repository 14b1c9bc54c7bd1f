// swift-tools-version:6.1
// libFuzzer targets for the code that turns network bytes into values, in their own package so the
// library's build never needs the fuzzer runtime. Run: scripts/fuzz.sh TARGET SECONDS
import PackageDescription

let package = Package(
    name: "SwitchyardFuzz",
    dependencies: [.package(name: "Switchyard", path: "../", traits: ["Cache"])],
    targets: [
        .executableTarget(
            name: "SwitchyardFuzz",
            dependencies: [
                .product(name: "SwitchyardStandardLinks", package: "Switchyard"),
                .product(name: "SwitchyardCurl", package: "Switchyard"),
                .product(name: "SwitchyardCache", package: "Switchyard"),
                .product(name: "SwitchyardTesting", package: "Switchyard"),
            ],
            // libFuzzer provides `main`; this target provides `LLVMFuzzerTestOneInput`.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
