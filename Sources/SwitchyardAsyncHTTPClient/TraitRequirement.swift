// SwitchyardAsyncHTTPClient is built only with the package trait AsyncHTTPClient (`swift build --traits AsyncHTTPClient`);
// without it, this error names the trait beside the failed imports.
#if !AsyncHTTPClient
#error("SwitchyardAsyncHTTPClient needs the package trait AsyncHTTPClient: .package(…, traits: [\"AsyncHTTPClient\"])")
#endif
