import SwitchyardCore

/// Folds identical pop-ups within a window into the first, so a burst of failures shows once.
///
/// The first worth-showing pop-up of a kind passes unchanged. Identical ones (the same message)
/// that follow within the window are marked not worth showing, and carry the running
/// ``PopUp/coalescedCount``, so an app can update a badge ("×10") without showing ten alerts.
final class PopUpCoalescer: Sendable {
    private struct Burst {
        let startedAt: ContinuousClock.Instant
        var count: Int
    }

    private let window: Duration
    private let bursts = Lock<[String: Burst]>([:])

    init(window: Duration) {
        self.window = window
    }

    /// The pop-up as it should be published at `now`.
    func coalesce(_ popUp: PopUp, now: ContinuousClock.Instant = .now) -> PopUp {
        guard popUp.isWorthShowing, window > .zero else { return popUp }
        return bursts.withLock { bursts in
            if var burst = bursts[popUp.message], now - burst.startedAt < window {
                burst.count += 1
                bursts[popUp.message] = burst
                return PopUp(message: popUp.message, isWorthShowing: false, coalescedCount: burst.count)
            }
            bursts[popUp.message] = Burst(startedAt: now, count: 1)
            if bursts.count > 256 { bursts = bursts.filter { now - $0.value.startedAt < window } }
            return popUp
        }
    }
}
