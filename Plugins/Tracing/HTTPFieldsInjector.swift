public import HTTPTypes
public import Instrumentation

/// Writes trace-context values (`traceparent`, `tracestate`, `baggage`, …) into request header
/// fields: the `Injector` an `Instrument` uses to propagate a `ServiceContext` over HTTP.
///
/// ```swift
/// var fields = request.head.headerFields
/// InstrumentationSystem.instrument.inject(ServiceContext.current ?? .topLevel, into: &fields, using: HTTPFieldsInjector())
/// ```
///
/// A value replaces any field of the same name; a key that is not a valid field name is skipped.
public struct HTTPFieldsInjector: Injector {
    /// Creates the injector.
    public init() {}

    /// Sets the field `key` to `value`.
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The field name (e.g. `traceparent`).
    ///   - carrier: The fields to write into.
    public func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}
