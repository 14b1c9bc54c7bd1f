/// A host name that no resolver can look up, whatever the machine's DNS says or does: its first
/// label has 64 octets, one over DNS's limit (RFC 1035, 2.3.4), so the resolver library refuses it
/// before sending a query (glibc's `getaddrinfo`, under libcurl, FoundationNetworking and SwiftNIO,
/// fails at once with no packet sent). A name such as `nonexistent.invalid` is asked of the
/// machine's DNS servers instead, whose answer (or silence) no test controls.
public let unresolvableHost = String(repeating: "a", count: 64) + ".invalid"
