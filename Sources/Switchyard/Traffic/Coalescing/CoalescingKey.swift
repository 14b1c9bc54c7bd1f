import HTTPTypes

/// What makes two requests identical for coalescing: method, full URL and the key fields' values.
///
/// Built only for eligible requests. Strings are stored, not joined, so building a key copies
/// references (no string is built unless a key field repeats).
struct CoalescingKey: Hashable, Sendable {
    let method: HTTPRequest.Method
    let scheme: String?
    let authority: String?
    let path: String?
    let accept: String?
    let acceptEncoding: String?
    let authorization: String?
    /// The values of the policy's additional key fields, in the policy's order (`nil`: absent).
    let additional: [String?]

    /// The key of `request` under `additionalFields`.
    init(_ request: HTTPRequest, additionalFields: [HTTPField.Name]) {
        method = request.method
        scheme = request.scheme
        authority = request.authority
        path = request.path
        let fields = request.headerFields
        accept = fields[.accept]
        acceptEncoding = fields[.acceptEncoding]
        authorization = fields[.authorization]
        // All absent (the usual case) is the empty array, built without an allocation.
        additional = additionalFields.contains { fields[$0] != nil } ? additionalFields.map { fields[$0] } : []
    }
}
