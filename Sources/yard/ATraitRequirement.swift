// yard is built only with the package trait Tools, which enables AsyncHTTPClient, Cache and TestServer;
// without it, this error names the trait beside the failed imports. The compiler stops at the first
// missing module in file order, hence a name that sorts before every other source of the target.
#if !Tools
#error("yard needs the package trait Tools: swift build --traits Tools (make build enables every trait)")
#endif
