// SwitchyardAsyncHTTPClient is built only with the package trait AsyncHTTPClient (`swift build --traits AsyncHTTPClient`);
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !AsyncHTTPClient
#error("SwitchyardAsyncHTTPClient needs the package trait AsyncHTTPClient: .package(…, traits: [\"AsyncHTTPClient\"])")
#endif
