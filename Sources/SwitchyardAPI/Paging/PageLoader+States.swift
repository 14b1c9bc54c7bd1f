import Switchyard

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
    func publish(_ newState: PageListState<Item>) {
        broadcast.publish(newState)
    }
}
