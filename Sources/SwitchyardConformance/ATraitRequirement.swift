// SwitchyardConformance is built only with the package trait TestServer (`swift build --traits TestServer`);
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !TestServer
#error("SwitchyardConformance needs the package trait TestServer: .package(…, traits: [\"TestServer\"])")
#endif
