public import SwitchyardCore

extension Client {
    /// Sends many requests concurrently, at most `maxConcurrency` at a time, and returns every
    /// outcome in request order (see ``Batch``).
    ///
    /// ```swift
    /// let results = await client.send(all: requests, maxConcurrency: 4, mode: .failFast)
    /// let bodies = try results.map { try $0.get().body }
    /// ```
    /// - Parameters:
    ///   - requests: The requests.
    ///   - maxConcurrency: Requests in flight at once (at least 1).
    ///   - mode: Collect every outcome, or cancel the rest at the first failure.
    /// - Returns: One outcome per request, in request order.
    public func send(
        all requests: [Request], maxConcurrency: Int = .max, mode: BatchMode = .collectAll
    ) async -> [Result<BufferedResponse, SwitchyardError>] {
        await Batch.run(requests, maxConcurrency: maxConcurrency, mode: mode) { (request) async throws(SwitchyardError) in
            try await send(request)
        }
    }

    /// Sends dependent requests one after another: `first`, then each step's request, made from the
    /// previous response. Stops at the first failure (or a step that throws), which it rethrows.
    ///
    /// ```swift
    /// let responses = try await client.send(first: createOrder, then: [
    ///     { order in try Request(method: .post, url: "https://api.example.com/orders/\(id(order))/pay") },
    /// ])
    /// ```
    ///
    /// The sequence is one unit: cancelling the awaiting task stops the request in flight and starts
    /// no later one.
    /// - Parameters:
    ///   - first: The first request.
    ///   - steps: Each makes the next request from the previous response.
    /// - Returns: Every response, in order.
    /// - Throws: The first failure, as a ``SwitchyardError``.
    public func send(
        first: Request, then steps: [@Sendable (BufferedResponse) throws -> Request]
    ) async throws(SwitchyardError) -> [BufferedResponse] {
        var responses = [try await send(first)]
        for step in steps {
            if Task.isCancelled { throw .cancelled }
            let request: Request
            do {
                request = try step(responses[responses.count - 1])
            } catch {
                throw .wrapping(error)
            }
            responses.append(try await send(request))
        }
        return responses
    }
}
