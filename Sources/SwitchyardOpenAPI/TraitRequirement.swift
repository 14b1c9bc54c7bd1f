// SwitchyardOpenAPI is built only with the package trait OpenAPI (`swift build --traits OpenAPI`);
// without it, this error names the trait beside the failed imports.
#if !OpenAPI
#error("SwitchyardOpenAPI needs the package trait OpenAPI: .package(…, traits: [\"OpenAPI\"])")
#endif
