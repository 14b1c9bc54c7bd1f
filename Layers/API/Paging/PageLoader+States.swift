import SwitchyardCore

extension PageLoader {
    /// The list's states from now on, starting with the current one, for a UI to render.
    ///
    /// Each call returns a stream of its own; it ends when the loader is released, and stops being
    /// fed when its consumer stops iterating. Every state is delivered (the stream buffers).
    ///
    /// ```swift
    /// @MainActor func watch(_ loader: PageLoader<OrdersSource, Order.ID>) async {
    ///     for await state in await loader.states() { self.state = state }
    /// }
    /// ```
    /// - Returns: A stream of states.
    public func states() -> AsyncStream<PageListState<Item>> {
        broadcast.subscribe()
    }

    /// Makes `state` the current state and hands it to every observer.
    /// - Parameters:
    ///   - newState: The state.
    ///   - load: The load whose chain reports (queued, retry waits) may change the state from now
    ///     on; `nil` ends the reports of the previous one.
    func publish(_ newState: PageListState<Item>, reportsFrom load: ReportingLoad? = nil) {
        reportingLoad.withLock { reporting in
            reporting = load
            broadcast.publish(newState)
        }
    }

    /// An observer of load `id`'s exchanges: turns the phases the chain reports into the list's
    /// state, while that load is the one in flight.
    nonisolated func observer(ofLoad id: UInt64) -> ActivityObserver {
        ActivityObserver { [reportingLoad, broadcast] phase in
            reportingLoad.withLock { reporting in
                guard let load = reporting, load.id == id else { return }
                switch phase {
                case .queued: broadcast.publish(.queued(load.kind, items: load.items))
                case .running: broadcast.publish(.running(load.kind, items: load.items))
                case .waitingForAttempt(let attempt, let delay):
                    broadcast.publish(.waitingToRetry(load.kind, items: load.items, attempt: attempt, delay: delay))
                }
            }
        }
    }
}
