public import SwitchyardCore

/// How urgent a request is when a concurrency-limit queue (`SwitchyardTraffic`) holds it: `userInitiated` requests
/// leave the queue before `utility` ones, which leave before `background` ones; requests of one
/// priority leave in the order they arrived.
///
/// ```swift
/// var options = RequestOptions()
/// options.priority = .background      // a prefetch: behind everything a person is waiting for
/// ```
///
/// Priorities only order a queue; without limits (or with free slots) every request goes at once.
public enum RequestPriority: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// A person is waiting for the result (the screen they just opened).
    case userInitiated = 0
    /// Ordinary work: the default.
    case utility = 1
    /// Work nobody waits for (prefetching, sync, analytics).
    case background = 2

    /// `userInitiated` < `utility` < `background`: the lesser leaves the queue first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `userInitiated`, `utility` or `background`.
    public var description: String {
        switch self {
        case .userInitiated: "userInitiated"
        case .utility: "utility"
        case .background: "background"
        }
    }
}

/// The per-request priority option (``RequestOptions/priority``).
public enum RequestPriorityKey: RequestOptionKey {
    /// ``RequestPriority/utility``.
    public static let defaultValue = RequestPriority.utility
}

extension RequestOptions {
    /// Where this request stands in a concurrency-limit queue (default ``RequestPriority/utility``).
    public var priority: RequestPriority {
        get { self[RequestPriorityKey.self] }
        set { self[RequestPriorityKey.self] = newValue }
    }
}
