// SwitchyardTracing is built only with the package trait Tracing (`swift build --traits Tracing`);
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !Tracing
#error("SwitchyardTracing needs the package trait Tracing: .package(…, traits: [\"Tracing\"])")
#endif
