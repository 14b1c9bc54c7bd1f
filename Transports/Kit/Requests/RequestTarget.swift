public import HTTPTypes

/// The absolute URL a request head names, for transports whose library takes the URL as one string.
public enum RequestTarget {
    /// `scheme://authority/path` of `head` (the path `/` when it has none), or `nil` when the head
    /// has no scheme or no authority.
    ///
    /// Built in one allocation of the final size, each part's bytes copied in once: a string
    /// interpolation starts small and grows, and appending part by part checks the capacity and
    /// the encoding again for every part.
    public static func absoluteURL(of head: HTTPRequest) -> String? {
        guard let scheme = head.scheme, let authority = head.authority else { return nil }
        let path = head.path ?? "/"
        let count = scheme.utf8.count + 3 + authority.utf8.count + path.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = copy(scheme, into: buffer, at: 0)
            written = copy("://", into: buffer, at: written)
            written = copy(authority, into: buffer, at: written)
            return copy(path, into: buffer, at: written)
        }
    }

    /// Copies `part`'s UTF-8 bytes into `buffer` from `offset`; returns the offset after them.
    private static func copy(_ part: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        let (_, end) = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(from: part.utf8)
        return offset + end
    }
}
