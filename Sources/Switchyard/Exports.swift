// `Switchyard` is the kernel (`SwitchyardCore`), the standard links (`SwitchyardStandardLinks`) and
// the transport kit's options (`SwitchyardTransportKit`: TLS, proxies, connection events): importing
// it gives all three, and the currency types of swift-http-types a first program names
// (`HTTPRequest.Method`, `HTTPFields`, `HTTPField.Name`, `HTTPResponse.Status`), so
// `import Switchyard` and a transport suffice.
@_exported public import HTTPTypes
@_exported public import SwitchyardCore
@_exported public import SwitchyardHeaders
@_exported public import SwitchyardPopUps
@_exported public import SwitchyardStandardLinks
@_exported public import SwitchyardTransportKit
