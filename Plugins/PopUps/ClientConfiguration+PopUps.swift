public import SwitchyardCore

/// ``SwitchyardCore/ClientConfiguration/popUps``.
enum PopUpsSetting: ClientSettingKey {
    static let defaultValue: PopUpPolicy? = nil
    static func plugins(for value: PopUpPolicy?, in configuration: ClientConfiguration) -> [Plugin] {
        value.map {
            [
                Plugin(
                    name: Plugin.popUpsName, layer: .outermost, relations: [.inside("events")],
                    interceptors: [PopUpInterceptor(policy: $0)])
            ]
        } ?? []
    }
}

extension Plugin {
    /// The name of the pop-ups plugin ``SwitchyardCore/ClientConfiguration/popUps`` adds.
    public static let popUpsName = "popUps"
}

extension ClientConfiguration {
    /// How failures become user-facing pop-ups (per department scope), and their coalescing; `nil`
    /// publishes none. With a policy, the `failed` event of every call that is not silent carries a
    /// ``PopUp``. The standard configuration has one.
    public var popUps: PopUpPolicy? {
        get { self[PopUpsSetting.self] }
        set { self[PopUpsSetting.self] = newValue }
    }
}

/// ``SwitchyardCore/RequestOptions/isSilent``.
public enum SilentOptionKey: RequestOptionKey {
    /// Not silent.
    public static let defaultValue = false
}

extension RequestOptions {
    /// When `true`, failures of this request are not worth showing to a person: they publish their
    /// `failed` event, but no ``PopUp``.
    public var isSilent: Bool {
        get { self[SilentOptionKey.self] }
        set { self[SilentOptionKey.self] = newValue }
    }
}
