import HTTPTypes
import SwitchyardCore

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
    /// The hash of the fields above, computed once: the registry looks a key up twice (join and
    /// removal), and the strings are hashed only here.
    private let hash: Int

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
        var hasher = Hasher()
        hasher.combine(method)
        hasher.combine(scheme)
        hasher.combine(authority)
        hasher.combine(path)
        hasher.combine(accept)
        hasher.combine(acceptEncoding)
        hasher.combine(authorization)
        hasher.combine(additional)
        hash = hasher.finalize()
    }

    /// Feeds the precomputed hash only; equality still compares every field.
    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.hash == rhs.hash && lhs.method == rhs.method && lhs.path == rhs.path && lhs.authority == rhs.authority
            && lhs.scheme == rhs.scheme && lhs.accept == rhs.accept && lhs.acceptEncoding == rhs.acceptEncoding
            && lhs.authorization == rhs.authorization && lhs.additional == rhs.additional
    }
}
