public import SwitchyardCore

extension HTTPBody {
    /// This body, together with a stream of upload progress: bytes handed to the transport so far,
    /// out of the body's length when known, throttled to about 20 updates a second and ending with
    /// a final update when the body has been read to its end.
    ///
    /// This counts what the transport *reads*: curl and AsyncHTTPClient read as they send, but
    /// URLSession on Linux reads the whole body before it sends a byte, so there it reaches 100 %
    /// first. For the bytes on the wire on every transport, use an ``Upload`` (which also pauses
    /// and resumes) or set a `SentBytesObserver` on the request's options.
    ///
    /// ```swift
    /// let (body, progress) = try HTTPBody.file(atPath: "movie.mp4").withProgress()
    /// Task { @MainActor in for await update in progress { bar.fraction = update.fractionCompleted ?? 0 } }
    /// let response = try await client.send(Request(method: .put, url: url, body: body))
    /// ```
    ///
    /// A retried or redirected replayable body starts counting from zero again (until the stream
    /// has ended). When reading the body itself fails, the stream ends with an update showing how
    /// far it got; when the transport stops pulling early (the exchange failed), the stream ends
    /// once the returned body is released.
    /// - Returns: The body (same bytes, length and replayability) and its progress stream (one reader).
    public func withProgress() -> (body: HTTPBody, progress: AsyncStream<TransferProgress>) {
        let reporter = ProgressReporter()
        let expected: Int64? = if case .known(let count) = length { count } else { nil }
        return (tapped(by: UploadProgressTap(reporter: reporter, expected: expected)), reporter.updates)
    }
}

/// Counts the chunks a transport pulls from an upload body into a ``ProgressReporter``.
private struct UploadProgressTap: BodyTap {
    let reporter: ProgressReporter
    let expected: Int64?

    func iterationStarted() { reporter.begin(completed: 0, expected: expected) }
    func received(_ chunk: ArraySlice<UInt8>) {
        reporter.advance(by: chunk.count)
        // A transport that knows the length may never ask for the end: the last byte ends it.
        if let expected, reporter.completedBytes >= expected { reporter.finish() }
    }
    func ended() { reporter.finish() }
    func failed(_ error: SwitchyardError) { reporter.finish() }
}
