extension HTTPBody {
    /// The most bytes ``discard(drainingUpTo:)`` reads by default: 64 KiB.
    public static let defaultDrainLimit: Int64 = 64 << 10

    /// Throws away a body nobody will read — an error page before another attempt, the body of a response that points elsewhere —
    /// without reading much of it.
    ///
    /// A small body of known length (at most `limit` bytes) is read to its end, which lets the
    /// transport reuse the connection. Anything else is not read at all: the caller drops its
    /// reference, and a streaming transport then cancels the transfer (closing the connection)
    /// rather than downloading megabytes that would be thrown away. Errors while draining are
    /// ignored; draining stops at task cancellation.
    ///
    /// ```swift
    /// if response.head.status == .serviceUnavailable {
    ///     await response.body?.discard()
    ///     return try await next(request)
    /// }
    /// ```
    /// - Parameter limit: The largest body that is drained rather than dropped.
    public func discard(drainingUpTo limit: Int64 = HTTPBody.defaultDrainLimit) async {
        guard bufferedBytes == nil, case .known(let count) = length, count <= limit else { return }
        var drained: Int64 = 0
        do {
            for try await chunk in self {
                drained += Int64(chunk.count)
                if drained > limit || Task.isCancelled { return }
            }
        } catch {
            // Nobody reads this body: a failure while draining changes nothing.
        }
    }
}
