public import OpenAPIRuntime

/// swift-openapi-runtime's body type under a name `Switchyard` does not use, for files that
/// import both modules (where plain `HTTPBody` is ambiguous).
public typealias OpenAPIHTTPBody = OpenAPIRuntime.HTTPBody
