// SwitchyardTracing is built only with the package trait Tracing (`swift build --traits Tracing`);
// without it, this error names the trait beside the failed imports.
#if !Tracing
#error("SwitchyardTracing needs the package trait Tracing: .package(…, traits: [\"Tracing\"])")
#endif
