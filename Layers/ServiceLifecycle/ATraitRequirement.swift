// SwitchyardServiceLifecycle is built only with the package trait ServiceLifecycle (`swift build --traits ServiceLifecycle`);
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !ServiceLifecycle
#error("SwitchyardServiceLifecycle needs the package trait ServiceLifecycle: .package(…, traits: [\"ServiceLifecycle\"])")
#endif
