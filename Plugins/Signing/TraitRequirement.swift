// SwitchyardSigning is built only with the package trait Signing (`swift build --traits Signing`);
// without it, this error names the trait beside the failed imports.
#if !Signing
#error("SwitchyardSigning needs the package trait Signing: .package(…, traits: [\"Signing\"])")
#endif
