import CCurl

/// One libcurl easy handle and its error buffer, reused across transfers by the event loop
/// (``CurlEasyTransfer`` configures and resets it). Confined to the event-loop thread.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>

    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        self.errorBuffer = .allocate(capacity: Int(ccurl_error_size()))
        errorBuffer.initialize(to: 0)
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// libcurl's detailed message for the last failure, or `""`.
    var errorMessage: String { String(cString: errorBuffer) }
}
