// SwitchyardTestServer is built only with the package trait TestServer (`swift build --traits TestServer`);
// without it, this error names the trait beside the failed imports.
#if !TestServer
#error("SwitchyardTestServer needs the package trait TestServer: .package(…, traits: [\"TestServer\"])")
#endif
