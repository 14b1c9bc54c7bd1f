public import SwitchyardCore

/// The per-request option of the quota plugin: how many units a call spends
/// (``SwitchyardCore/RequestOptions/quotaCost``).
public enum QuotaCostKey: RequestOptionKey {
    /// One unit per call.
    public static let defaultValue = 1
}

extension RequestOptions {
    /// How many units of a ``Quota`` this call spends (default 1), when a quota plugin's scope
    /// covers it: an export that costs the backend 20 searches says so.
    ///
    /// ```swift
    /// var request = try Request(url: "https://search.example.com/export")
    /// request.options.quotaCost = 20
    /// ```
    public var quotaCost: Int {
        get { self[QuotaCostKey.self] }
        set { self[QuotaCostKey.self] = newValue }
    }
}
