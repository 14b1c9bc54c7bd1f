/// Names a per-request option that a plugin declares: its value type and its default.
///
/// The kernel's ``RequestOptions`` carries what every request has (deadline, tags, size limit);
/// a feature adds its own options as keys, in its own module, and offers a property for them:
///
/// ```swift
/// public enum TraceSampling: RequestOptionKey {
///     public static let defaultValue = true
/// }
///
/// extension RequestOptions {
///     /// Whether this request's spans are recorded.
///     public var isTraced: Bool {
///         get { self[TraceSampling.self] }
///         set { self[TraceSampling.self] = newValue }
///     }
/// }
///
/// var options = RequestOptions()
/// options.isTraced = false
/// ```
///
/// An option that was never set costs nothing: reading it returns ``defaultValue`` without a
/// lookup, and requests that set no plugin option carry no storage.
public protocol RequestOptionKey: Sendable {
    /// The option's value type; hashable, so options can be compared (e.g. to key shared exchanges).
    associatedtype Value: Sendable & Hashable
    /// The value of a request that does not set the option.
    static var defaultValue: Value { get }
}

/// The plugin options one ``RequestOptions`` carries, by key; empty (and unallocated) when none is set.
///
/// Reading is inlinable, so a read is specialized for its key where it is written: no generic
/// metadata is looked up at run time on the request path.
@usableFromInline
struct RequestOptionValues: Sendable, Hashable {
    /// A set value; compared and hashed through the value's own conformances.
    @usableFromInline
    struct Stored: Sendable, Hashable {
        @usableFromInline let value: any Sendable & Hashable

        @usableFromInline static func == (lhs: Stored, rhs: Stored) -> Bool { AnyHashable(lhs.value) == AnyHashable(rhs.value) }
        @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(value)) }
    }

    @usableFromInline var values: [ObjectIdentifier: Stored] = [:]

    @usableFromInline init() {}

    /// The value set for `key`, or `nil`.
    @inlinable
    func value<Key: RequestOptionKey>(for key: Key.Type) -> Key.Value? {
        guard !values.isEmpty else { return nil }
        return values[ObjectIdentifier(key)]?.value as? Key.Value
    }

    /// Sets the value for `key`; setting the default removes it, so options compare by what they mean.
    @usableFromInline
    mutating func set<Key: RequestOptionKey>(_ value: Key.Value, for key: Key.Type) {
        values[ObjectIdentifier(key)] = value == Key.defaultValue ? nil : Stored(value: value)
    }
}
