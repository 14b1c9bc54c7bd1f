// SwitchyardSigning is built only with the package trait Signing (`swift build --traits Signing`);
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !Signing
#error("SwitchyardSigning needs the package trait Signing: .package(…, traits: [\"Signing\"])")
#endif
