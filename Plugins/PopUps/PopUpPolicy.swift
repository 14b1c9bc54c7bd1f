import HTTPTypes
public import SwitchyardCore
import SwitchyardTransportKit

/// Turns a failure into the text a user sees, and decides whether it is worth showing.
///
/// Defaults cover every ``SwitchyardError/Kind`` and the common HTTP statuses; each department
/// can override them for its own endpoints with a scope:
///
/// ```swift
/// var popUps = PopUpPolicy()
/// popUps.add(RequestScope(pathPrefixes: ["/payments"]), PopUpMessages(
///     kinds: [.timeout: "The payment service is slow. Your card was not charged."],
///     statuses: [402: "Your card was declined."]))
/// let configuration = ClientConfiguration(popUps: popUps)
/// ```
///
/// Resolution is deterministic: the scoped overrides are searched in the order they were added and
/// the first scope that matches the request *and* has a text for the failure wins; otherwise the
/// defaults apply. Messages never contain URLs, header values or server text, so they cannot leak
/// secrets.
public struct PopUpPolicy: Sendable {
    /// Text for failures, by status (for ``SwitchyardError/Kind/httpStatus``) and by kind.
    public var defaults: PopUpMessages
    /// Department overrides, searched in order.
    public private(set) var overrides: [(scope: RequestScope, messages: PopUpMessages)]
    /// Identical pop-ups within this window are coalesced into the first one.
    public var coalescingWindow: Duration
    /// Text taken from the failure itself, tried before the tables: e.g. the server's own message
    /// from its error document (`{ $0.problem?.detail }` with `SwitchyardAPI`). Default `nil`: no
    /// pop-up carries server text unless the app asks for it here.
    public var errorText: (@Sendable (SwitchyardError) -> String?)?

    /// Creates a policy with the default texts and a 2-second coalescing window.
    /// - Parameters:
    ///   - defaults: The texts used when no override matches.
    ///   - coalescingWindow: How long identical pop-ups are folded into the first.
    public init(defaults: PopUpMessages = .standard, coalescingWindow: Duration = .seconds(2)) {
        self.defaults = defaults
        self.overrides = []
        self.coalescingWindow = coalescingWindow
    }

    /// Adds texts for the requests in `scope`; earlier additions take precedence.
    /// - Parameters:
    ///   - scope: The department's requests.
    ///   - messages: Its texts.
    public mutating func add(_ scope: RequestScope, _ messages: PopUpMessages) {
        overrides.append((scope, messages))
    }

    /// The pop-up for `error` on a request with this head and these tags.
    /// - Parameters:
    ///   - error: The failure.
    ///   - request: The request that failed.
    /// - Returns: The pop-up, with ``PopUp/isWorthShowing`` from ``PopUpMessages/isWorthShowing(_:)``;
    ///   `nil` for cancellations.
    public func popUp(for error: SwitchyardError, request: Request) -> PopUp? {
        guard error.kind != .cancelled else { return nil }
        if let errorText, let text = errorText(error), !text.isEmpty {
            let messages = overrides.first { $0.scope.matches(request) }?.messages ?? defaults
            return PopUp(message: text, isWorthShowing: messages.isWorthShowing(error))
        }
        for (scope, messages) in overrides where scope.matches(request) {
            if let text = messages.text(for: error) {
                return PopUp(message: text, isWorthShowing: messages.isWorthShowing(error))
            }
        }
        let text = defaults.text(for: error) ?? PopUpMessages.fallback
        return PopUp(message: text, isWorthShowing: defaults.isWorthShowing(error))
    }
}

/// The user-facing texts of a ``PopUpPolicy``: by HTTP status first, then by error kind.
public struct PopUpMessages: Sendable {
    /// Text by error kind.
    public var kinds: [SwitchyardError.Kind: String]
    /// Text by HTTP status, for ``SwitchyardError/Kind/httpStatus`` failures.
    public var statuses: [Int: String]
    /// Kinds a user can do nothing about or should not see (they still publish failure events).
    public var silentKinds: Set<SwitchyardError.Kind>
    /// Statuses worth showing; other 4xx statuses are left to the screen that asked.
    public var shownStatuses: Set<Int>

    /// The text when nothing else matches.
    public static let fallback = "Something went wrong. Please try again."

    /// Sensible English defaults.
    public static let standard = PopUpMessages(
        kinds: [
            .connectionFailed: "You appear to be offline, or the server cannot be reached.",
            .timeout: "The server is taking too long to answer. Please try again.",
            .tls: "A secure connection to the server could not be established.",
            .protocolViolation: "The server sent an invalid response. Please try again later.",
            .responseTooLarge: "The server sent more data than expected.",
            .tooManyRedirects: "The server redirected too many times.",
            .decoding: "The server's answer could not be read.",
            .httpStatus: "The server could not complete the request.",
            .invalidRequest: fallback,
            .transport: fallback
        ],
        statuses: [
            401: "Please sign in again.",
            403: "You don't have access to this.",
            404: "This item could not be found.",
            408: "The server is taking too long to answer. Please try again.",
            429: "Too many requests right now. Please wait a moment.",
            500: "The server had a problem. Please try again later.",
            502: "The service is temporarily unavailable. Please try again later.",
            503: "The service is temporarily unavailable. Please try again later.",
            504: "The server is taking too long to answer. Please try again."
        ],
        silentKinds: [.invalidRequest, .cancelled],
        shownStatuses: [401, 403, 408, 429])

    /// Creates texts.
    /// - Parameters:
    ///   - kinds: Text by error kind.
    ///   - statuses: Text by HTTP status.
    ///   - silentKinds: Kinds never worth showing.
    ///   - shownStatuses: 4xx statuses worth showing (5xx always are).
    public init(
        kinds: [SwitchyardError.Kind: String] = [:], statuses: [Int: String] = [:],
        silentKinds: Set<SwitchyardError.Kind> = [.invalidRequest, .cancelled],
        shownStatuses: Set<Int> = [401, 403, 408, 429]
    ) {
        self.kinds = kinds
        self.statuses = statuses
        self.silentKinds = silentKinds
        self.shownStatuses = shownStatuses
    }

    /// The text for `error`, if these messages have one.
    /// - Parameter error: The failure.
    /// - Returns: The status text for an HTTP status error, else the kind text, else `nil`.
    public func text(for error: SwitchyardError) -> String? {
        if error.kind == .httpStatus, let code = error.response?.status.code, let text = statuses[code] { return text }
        return kinds[error.kind]
    }

    /// Whether a user should see a pop-up for `error`.
    /// - Parameter error: The failure.
    /// - Returns: `false` for ``silentKinds`` and for 4xx statuses outside ``shownStatuses``.
    public func isWorthShowing(_ error: SwitchyardError) -> Bool {
        if silentKinds.contains(error.kind) { return false }
        if error.kind == .httpStatus, let code = error.response?.status.code, (400..<500).contains(code) {
            return shownStatuses.contains(code)
        }
        return true
    }
}
