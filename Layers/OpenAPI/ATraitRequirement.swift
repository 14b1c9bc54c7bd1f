// SwitchyardOpenAPI is built only with the package trait OpenAPI (`swift build --traits OpenAPI`);
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !OpenAPI
#error("SwitchyardOpenAPI needs the package trait OpenAPI: .package(…, traits: [\"OpenAPI\"])")
#endif
