public import SwitchyardCore

/// A message for the user about a failed exchange: what an app shows in a banner or alert.
///
/// With a pop-up policy (``SwitchyardCore/ClientConfiguration/popUps``), the `failed` event of a
/// request that is not silent (``SwitchyardCore/RequestOptions/isSilent``) carries one:
///
/// ```swift
/// for await event in bus.subscribe() {
///     if let popUp = event.popUp, popUp.isWorthShowing { await showBanner(popUp.message) }
/// }
/// ```
public struct PopUp: Sendable, Hashable {
    /// The user-presentable text, e.g. "You appear to be offline."
    public var message: String
    /// Whether the app should show it (`false` for failures users cannot act on or should not see).
    public var isWorthShowing: Bool
    /// How many identical pop-ups were coalesced into this one (1 when it stands alone).
    public var coalescedCount: Int

    /// Creates a pop-up.
    /// - Parameters:
    ///   - message: The user-presentable text.
    ///   - isWorthShowing: Whether the app should show it.
    ///   - coalescedCount: How many identical pop-ups this one stands for.
    public init(message: String, isWorthShowing: Bool = true, coalescedCount: Int = 1) {
        self.message = message
        self.isWorthShowing = isWorthShowing
        self.coalescedCount = coalescedCount
    }
}

/// Where ``PopUpInterceptor`` leaves a failure's pop-up for the `failed` event that follows.
enum PopUpKey: ExchangeContextKey {
    typealias Value = PopUp
}

extension ExchangeEvent {
    /// On a `failed` event: the message for the user that the pop-up policy chose (``PopUp``);
    /// `nil` on other events, for silent requests, and in a client without a pop-up policy.
    public var popUp: PopUp? {
        guard case .failed = kind else { return nil }
        return context?[PopUpKey.self]
    }
}
