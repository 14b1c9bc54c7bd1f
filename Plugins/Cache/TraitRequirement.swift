// SwitchyardCache is built only with the package trait Cache (`swift build --traits Cache`);
// without it, this error names the trait beside the failed imports.
#if !Cache
#error("SwitchyardCache needs the package trait Cache: .package(…, traits: [\"Cache\"])")
#endif
