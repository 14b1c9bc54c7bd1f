import SwitchyardCore

/// How far an upload or a download has got: one update of a progress stream.
///
/// ```swift
/// for await update in download.progress {
///     label.text = "\(update.completedBytes) of \(update.expectedBytes ?? 0) bytes at \(Int(update.bytesPerSecond)) B/s"
/// }
/// ```
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred so far (for a resumed download, including the bytes already on disk).
    public var completedBytes: Int64
    /// The total, when it is known.
    public var expectedBytes: Int64?
    /// The recent transfer rate: bytes per second since the previous update (the average over the
    /// whole transfer in the final update).
    public var bytesPerSecond: Double
    /// Whether this is the last update of its stream.
    public var isFinal: Bool

    /// Creates a progress update.
    /// - Parameters:
    ///   - completedBytes: Bytes transferred so far.
    ///   - expectedBytes: The total, if known.
    ///   - bytesPerSecond: The transfer rate.
    ///   - isFinal: Whether this is the last update.
    public init(completedBytes: Int64, expectedBytes: Int64?, bytesPerSecond: Double, isFinal: Bool = false) {
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
        self.bytesPerSecond = bytesPerSecond
        self.isFinal = isFinal
    }

    /// `completedBytes / expectedBytes` in 0…1, or `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let expectedBytes else { return nil }
        guard expectedBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }
}
