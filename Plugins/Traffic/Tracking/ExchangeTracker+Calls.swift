import SwitchyardCore

extension ExchangeTracker {
    /// Runs the head of a streamed call in a task of its own; a streamed body is then read by a pump
    /// task the tracker can also cancel, and the exchange is followed until the body ends or is dropped.
    func trackStream(
        _ context: ExchangeContext, tags: Set<String>,
        _ operation: @escaping @Sendable () async throws(SwitchyardError) -> Response
    ) async throws(SwitchyardError) -> Response {
        let exchange = startFollowing(context, tags: tags)
        let response: Response
        do {
            response = try await Self.runCancellable(exchange, operation).get()
        } catch {
            unregister(exchange)
            throw error
        }
        guard let body = response.body, body.bufferedBytes == nil else {
            unregister(exchange)
            return response
        }
        let relay = BodyRelay()
        let pump = Task { [self] in
            defer { unregister(exchange) }
            do {
                for try await chunk in body {
                    guard await relay.put(chunk) else { return relay.finish(.failure(.cancelled)) }
                }
                relay.finish(.success(()))
            } catch {
                relay.finish(.failure(Task.isCancelled ? .cancelled : .wrapping(error)))
            }
        }
        exchange.onCancel { pump.cancel() }
        relay.onAbandon { pump.cancel() }
        var relayed = response
        relayed.body = HTTPBody(RelayedChunks(relay), length: body.length, replayability: .singleUse)
        return relayed
    }

    private func startFollowing(_ context: ExchangeContext, tags: Set<String>) -> TrackedExchange {
        let exchange = register(id: context.id, tags: tags)
        context[TrackerRegistrationKey.self] = TrackerRegistration(tracker: self, exchange: exchange)
        return exchange
    }

    private static func runCancellable<Value: Sendable>(
        _ exchange: TrackedExchange, _ operation: @escaping @Sendable () async throws(SwitchyardError) -> Value
    ) async -> Result<Value, SwitchyardError> {
        let task = Task.startingImmediately { () async -> Result<Value, SwitchyardError> in
            do throws(SwitchyardError) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        exchange.onCancel { task.cancel() }
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
