/// Everything a ``Client`` assembles into its chain: the event bus, the settings features add, the
/// registered plugins and the app's own interceptors.
///
/// ```swift
/// var configuration = ClientConfiguration()            // the standard configuration (module Switchyard)
/// configuration.plugins = [.signing(scope: payments, signer: signer)]   // SwitchyardSigning
/// let client = try Client(transport: CurlTransport(), configuration: configuration)
/// for link in client.chain { print(link) }
/// ```
///
/// ### The order of the chain
///
/// ```
/// call:     call plugins of the stages before `department` → app call interceptors → call plugins from `department` to `resending`
/// attempt:  attempt plugins up to `department` → app attempt interceptors → attempt plugins after it (`nextToTransport` last) → transport
/// ```
///
/// Plugins sit by their ``Plugin/Layer``: in the call position, those outside the departments'
/// layer come before the app's call interceptors; in the attempt position, the app's attempt
/// interceptors come after the departments' plugins. With a bus, the kernel adds a plugin named
/// `events` in the ``Plugin/Layer/outermost`` stage, which publishes each call's lifecycle. Every
/// feature joins as plugins at the stages its module documents.
///
/// *Call* links run once per call; *attempt* links run once per attempt (each time the request is
/// sent again) and see the request exactly as it goes on the wire. Plugins of one position keep
/// their registration order unless a ``Plugin/Placement`` moves them. Modules add settings of their
/// own (``ClientSettingKey``), and leave a feature out when its setting is `nil`.
public struct ClientConfiguration: Sendable {
    /// Where lifecycle and plugin events are published (every exchange's
    /// ``ExchangeContext/eventBus``); `nil` publishes none, unless a plugin has observers: then the
    /// client creates a bus, so observers are never dropped silently.
    public var events: EventBus?
    /// Department plugins.
    public var plugins: [Plugin]
    /// The app's own call interceptors, outermost first (after the plugins outside the departments' stage).
    public var callInterceptors: [any Interceptor]
    /// The app's own attempt interceptors, outermost first (after the attempt plugins).
    public var attemptInterceptors: [any Interceptor]
    /// The `User-Agent` sent with requests that set none, the same on every transport (the
    /// standard configuration's is `Switchyard/<version>`); `nil` sends none of the client's own
    /// (a transport may then add its own: URLSession does). A value with CR, LF or NUL fails every
    /// request with `invalidRequest`.
    public var userAgent: String?

    /// No built-in link and no event bus: the transport alone, plus what you add (plugins, the
    /// app's interceptors).
    public static var bare: ClientConfiguration {
        ClientConfiguration(events: nil, plugins: [], callInterceptors: [], attemptInterceptors: [])
    }

    /// Settings added by other modules (``ClientSettingKey``), by key.
    private var settings: [ObjectIdentifier: ClientSetting] = [:]

    /// A configuration with no links and these parts.
    init(
        events: EventBus?, plugins: [Plugin], callInterceptors: [any Interceptor], attemptInterceptors: [any Interceptor]
    ) {
        self.events = events
        self.plugins = plugins
        self.callInterceptors = callInterceptors
        self.attemptInterceptors = attemptInterceptors
    }

    /// A setting added by another module, or its default when never set.
    /// - Parameter key: The setting's key.
    public subscript<Key: ClientSettingKey>(key: Key.Type) -> Key.Value {
        get { settings[ObjectIdentifier(key)]?.value as? Key.Value ?? Key.defaultValue }
        set {
            settings[ObjectIdentifier(key)] = ClientSetting(
                value: newValue, plugins: { Key.plugins(for: newValue, in: $0) }, name: String(reflecting: key))
        }
    }

    /// The plugins of every setting, in a stable order (by key name; layers then place them).
    var settingPlugins: [Plugin] {
        settings.values.sorted { $0.name < $1.name }.flatMap { $0.plugins(self) }
    }
}
