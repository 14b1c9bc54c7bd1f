// SwitchyardCache is built only with the package trait Cache (`swift build --traits Cache`);
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !Cache
#error("SwitchyardCache needs the package trait Cache: .package(…, traits: [\"Cache\"])")
#endif
