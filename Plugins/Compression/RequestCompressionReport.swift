public import SwitchyardCore

/// What request compression did to one exchange's body: read it from the exchange's context.
///
/// ```swift
/// let response = try await client.send(upload)
/// if let report = response.context[RequestCompressionReport.Key.self] {
///     print("sent \(report.compressedBytes) of \(report.originalBytes) bytes")
/// }
/// ```
///
/// Recorded when the compressed body has been read to its end (the transport sent all of it); a
/// replayed body (retry, redirect) records again, so the report describes the last attempt.
public struct RequestCompressionReport: Sendable, Hashable {
    /// The key under which the report is stored in an ``ExchangeContext``.
    public enum Key: ExchangeContextKey {
        /// The report.
        public typealias Value = RequestCompressionReport
    }

    /// The content coding applied, e.g. `gzip`.
    public var coding: String
    /// The body's size before compression.
    public var originalBytes: Int64
    /// The body's size on the wire.
    public var compressedBytes: Int64

    /// Creates a report.
    /// - Parameters:
    ///   - coding: The content coding.
    ///   - originalBytes: The size before compression.
    ///   - compressedBytes: The size after compression.
    public init(coding: String, originalBytes: Int64, compressedBytes: Int64) {
        self.coding = coding
        self.originalBytes = originalBytes
        self.compressedBytes = compressedBytes
    }
}
