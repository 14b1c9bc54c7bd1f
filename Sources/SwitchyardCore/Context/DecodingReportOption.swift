/// The per-request option that holds a timing record for the decoding phase
/// (``RequestOptions/recordsDecoding``).
public enum RecordsDecodingKey: RequestOptionKey {
    /// `false`: the record is complete when the exchange ends.
    public static let defaultValue = false
}

extension RequestOptions {
    /// Whether the caller decodes the response body after the exchange and reports the time with
    /// ``ExchangeContext/recordDecoding(_:)``: timing statistics then hold the call's record until
    /// that report, so it carries the `decoding` phase. Set by the API layer (`SwitchyardAPI`); a
    /// record whose report never comes is kept, without the phase, when the context ends.
    public var recordsDecoding: Bool {
        get { self[RecordsDecodingKey.self] }
        set { self[RecordsDecodingKey.self] = newValue }
    }
}
