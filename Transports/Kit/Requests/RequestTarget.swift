public import HTTPTypes

/// The absolute URL a request head names, for transports whose library takes the URL as one string.
public enum RequestTarget {
    /// `scheme://authority/path` of `head` (the path `/` when it has none), or `nil` when the head
    /// has no scheme or no authority.
    ///
    /// Built in one allocation of the final size: a string interpolation starts small and grows,
    /// which costs a second allocation and copies on every request.
    public static func absoluteURL(of head: HTTPRequest) -> String? {
        guard let scheme = head.scheme, let authority = head.authority else { return nil }
        let path = head.path ?? "/"
        var url = String()
        url.reserveCapacity(scheme.utf8.count + 3 + authority.utf8.count + path.utf8.count)
        url += scheme
        url += "://"
        url += authority
        url += path
        return url
    }
}
