// yard is built only with the package trait Tools, which enables AsyncHTTPClient, Cache and TestServer;
// without it, this error names the trait beside the failed imports.
#if !Tools
#error("yard needs the package trait Tools: swift build --traits Tools (make build enables every trait)")
#endif
