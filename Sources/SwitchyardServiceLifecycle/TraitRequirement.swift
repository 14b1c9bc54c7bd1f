// SwitchyardServiceLifecycle is built only with the package trait ServiceLifecycle (`swift build --traits ServiceLifecycle`);
// without it, this error names the trait beside the failed imports.
#if !ServiceLifecycle
#error("SwitchyardServiceLifecycle needs the package trait ServiceLifecycle: .package(…, traits: [\"ServiceLifecycle\"])")
#endif
