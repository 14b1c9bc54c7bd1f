/// A setting a module adds to ``ClientConfiguration``: a typed value that becomes plugins when the
/// chain is assembled. The links the `Switchyard` module configures are settings of this kind; a
/// module of your own can add one the same way.
///
/// ```swift
/// enum GreetingKey: ClientSettingKey {
///     static let defaultValue: String? = nil
///     static func plugins(for value: String?, in configuration: ClientConfiguration) -> [Plugin] {
///         value.map { [Plugin(name: "greeting", interceptors: [GreetingInterceptor(greeting: $0)])] } ?? []
///     }
/// }
/// configuration[GreetingKey.self] = "hello"
/// ```
public protocol ClientSettingKey: SendableMetatype {
    /// The setting's type.
    associatedtype Value: Sendable
    /// The value of a configuration that never set it.
    static var defaultValue: Value { get }
    /// The plugins `value` puts in the chain (none to leave the feature out); `configuration` is
    /// the whole configuration, for settings that read each other.
    /// - Parameters:
    ///   - value: The setting's value.
    ///   - configuration: The configuration being assembled.
    /// - Returns: The plugins, placed by their layers.
    static func plugins(for value: Value, in configuration: ClientConfiguration) -> [Plugin]
}

/// One stored setting: its value and how it becomes plugins.
struct ClientSetting: Sendable {
    let value: any Sendable
    let plugins: @Sendable (ClientConfiguration) -> [Plugin]
    /// Orders settings' plugins the same way on every run.
    let name: String
}
