/// What an exchange is doing while it waits, as the links that make it wait report it
/// (``ActivityReporting``): the layers above the client turn it into their own states.
public enum ExchangeActivity: Sendable, Hashable {
    /// Waiting behind a limit (a concurrency or rate limit) before it is sent.
    case queued
    /// In the chain or on the wire.
    case running
    /// An attempt failed and a link waits before attempt `attempt` (2 for the second): for `delay`,
    /// or, when `delay` is `nil`, until something holding the attempts lifts.
    case waitingForAttempt(_ attempt: Int, delay: Duration?)
}

/// How the links that make an exchange wait tell the work that started it: a handle (a call, a
/// transfer, a paged list) installs an observer for the task that runs its exchanges, and a link
/// that queues the exchange or waits before another attempt reports it.
///
/// ```swift
/// await ActivityReporting.$observer.withValue(ActivityObserver { phase in print(phase) }) {
///     _ = try? await client.send(request)   // prints queued, running, waitingForAttempt(…), running …
/// }
/// ```
///
/// A plugin of any department that makes exchanges wait reports the same way:
/// ``report(_:)`` `.queued` before the wait, `.running` after it. Reporting costs one task-local
/// read, and only when a wait happens: an exchange that never waits reports nothing.
public enum ActivityReporting {
    /// The observer of the current task's work, if any.
    @TaskLocal public static var observer: ActivityObserver?

    /// Hands `phase` to the current task's observer, if there is one.
    /// - Parameter phase: What the exchange is doing now.
    public static func report(_ phase: ExchangeActivity) {
        observer?.report(phase)
    }
}

/// Receives the phases the chain reports for the exchanges of one piece of work
/// (see ``ActivityReporting``).
///
/// Work runs inside other work: a paged list's load makes a call, whose handle installs its own
/// observer. An observer made while another is installed passes every phase on to that one too,
/// so the list hears its call's waits.
public struct ActivityObserver: Sendable {
    private let receive: @Sendable (ExchangeActivity) -> Void
    /// The observer installed where this one was made, told every phase after this one.
    private let enclosing: (@Sendable (ExchangeActivity) -> Void)?

    /// Creates an observer that also tells the observer installed now, if any.
    /// - Parameter receive: Called with each reported phase, on the reporting task; keep it short.
    public init(_ receive: @escaping @Sendable (ExchangeActivity) -> Void) {
        self.receive = receive
        self.enclosing = ActivityReporting.observer.map { $0.report }
    }

    /// Hands `phase` to the observer, then to the one it was made within.
    /// - Parameter phase: The phase.
    public func report(_ phase: ExchangeActivity) {
        receive(phase)
        enclosing?(phase)
    }
}
