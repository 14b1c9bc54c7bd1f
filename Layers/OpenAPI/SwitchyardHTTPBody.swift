public import SwitchyardCore

/// Switchyard's body type under a name `OpenAPIRuntime` does not use, for files that import
/// both modules (where plain `HTTPBody` is ambiguous).
public typealias SwitchyardHTTPBody = SwitchyardCore.HTTPBody
