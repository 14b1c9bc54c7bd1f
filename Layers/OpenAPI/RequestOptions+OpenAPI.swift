public import SwitchyardCore

extension RequestOptions {
    /// The `RequestOptions.userInfo` key under which the OpenAPI bridge records the operation ID.
    public static let openAPIOperationIDKey = "openapi.operationID"

    /// The OpenAPI operation this request belongs to (e.g. `getGreeting`), when a generated client
    /// sent it through ``SwitchyardClientTransport``; `nil` otherwise.
    ///
    /// The same ID is one of the request's `RequestOptions.tags`, so a `RequestScope` such as
    /// `RequestScope(tags: ["getGreeting"])` selects the operation for a department plugin, header
    /// rules or pop-up texts; events carry it in `ExchangeEvent.tags` and their user info.
    public var openAPIOperationID: String? {
        get { userInfo[Self.openAPIOperationIDKey] }
        set { userInfo[Self.openAPIOperationIDKey] = newValue }
    }
}
