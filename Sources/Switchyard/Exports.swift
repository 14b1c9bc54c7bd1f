// `Switchyard` is the kernel (`SwitchyardCore`) plus the standard links (`SwitchyardStandardLinks`):
// importing it gives both, and the currency types of swift-http-types a first program names
// (`HTTPRequest.Method`, `HTTPFields`, `HTTPField.Name`, `HTTPResponse.Status`), so
// `import Switchyard` and a transport suffice.
@_exported public import HTTPTypes
@_exported public import SwitchyardCore
@_exported public import SwitchyardStandardLinks
