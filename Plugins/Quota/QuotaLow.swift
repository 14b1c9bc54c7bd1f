public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) by a call that left its department's
/// quota at or below the plugin's warning level: time to slow down before calls are refused.
///
/// ```swift
/// if let low = event.plugin(QuotaLow.self) { showBanner("\(low.remaining) searches left today") }
/// ```
public struct QuotaLow: PluginEvent, Hashable {
    /// `quotaLow`.
    public var name: String { "quotaLow" }
    /// The plugin (department) whose quota is low.
    public let department: String
    /// The units left.
    public let remaining: Int
    /// `DEPARTMENT: N units left`.
    public var detail: String { "\(department): \(remaining) units left" }

    /// Creates the event.
    /// - Parameters:
    ///   - department: The plugin's name.
    ///   - remaining: The units left.
    public init(department: String, remaining: Int) {
        self.department = department
        self.remaining = remaining
    }
}
