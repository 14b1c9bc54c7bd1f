import Synchronization

/// What a forgiving decode did instead of failing: scalars it converted (``JSONField/lenient()``)
/// and list elements it skipped (`skippingInvalidElements`).
///
/// An ``APIClient`` call's report is ``ResponseInfo/decodingReport``; around any other decode,
/// ``collecting(_:)`` gathers it.
public struct DecodingReport: Sendable, Hashable {
    /// A value of another JSON type taken as the property's type.
    public struct Conversion: Sendable, Hashable, CustomStringConvertible {
        /// Where it sat (`data.page`).
        public var path: String
        /// What the JSON held (`a string "3"`).
        public var found: String
        /// The property's type (`Int`).
        public var convertedTo: String

        /// `data.page: a string "3" taken as Int`.
        public var description: String { "\(path): \(found) taken as \(convertedTo)" }
    }

    /// A list element left out because it did not decode.
    public struct SkippedElement: Sendable, Hashable, CustomStringConvertible {
        /// The list's path (`data.items`).
        public var path: String
        /// The element's index in the JSON list.
        public var index: Int
        /// Why it failed (`data.items[3].id: expected a string, found null`).
        public var reason: String

        /// `data.items[3] skipped: …`.
        public var description: String { "\(path)[\(index)] skipped: \(reason)" }
    }

    /// Conversions, in document order.
    public var conversions: [Conversion] = []
    /// Skipped elements, in document order.
    public var skippedElements: [SkippedElement] = []

    /// Creates an empty report.
    public init() {}

    /// Whether nothing was converted or skipped.
    public var isEmpty: Bool { conversions.isEmpty && skippedElements.isEmpty }

    /// Runs `decode` and returns what it decoded with the report of its forgiving steps.
    /// - Parameter decode: A decode, e.g. `{ try JSONDecoder().decode(Page.self, from: data) }`.
    /// - Returns: The value and the report.
    /// - Throws: What `decode` throws.
    public static func collecting<T>(_ decode: () throws -> T) rethrows -> (value: T, report: DecodingReport) {
        let collector = Collector()
        let value = try $current.withValue(collector) { try decode() }
        return (value, collector.report)
    }

    /// The collector of the decode running on this task, if any.
    @TaskLocal static var current: Collector?

    /// Gathers notes from decoding code (which may run on any thread of the decode's task).
    final class Collector: Sendable {
        private let notes = Mutex(DecodingReport())

        var report: DecodingReport { notes.withLock { $0 } }

        func record(_ conversion: Conversion) { notes.withLock { $0.conversions.append(conversion) } }
        func record(_ skipped: SkippedElement) { notes.withLock { $0.skippedElements.append(skipped) } }
    }
}
