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
        let (stream, continuation) = AsyncStream.makeStream(of: PageListState<Item>.self)
        nextObserverID += 1
        let id = nextObserverID
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        continuation.yield(state)
        return stream
    }

    /// Makes `state` the current state and hands it to every observer.
    func publish(_ newState: PageListState<Item>) {
        state = newState
        for continuation in observers.values { continuation.yield(newState) }
    }

    private func removeObserver(_ id: UInt64) {
        observers[id] = nil
    }
}
