import HTTPTypes
import SwitchyardCore

extension StubReply {
    /// Waits for the delay, then produces the response or throws the error, as a transport would.
    ///
    /// `HEAD` requests get the head without a body; a canned body larger than the request's
    /// ``RequestOptions/maxResponseBytes`` fails with ``SwitchyardError/Kind/responseTooLarge``.
    func answer(_ request: Request, context: ExchangeContext) async throws -> Response {
        try context.checkLiveness()
        try await Self.wait(delay, context: context)
        let response: Response
        switch action {
        case .fail(let error):
            throw error
        case .custom(let handler):
            response = try await handler(request, context)
        case .respond(let head, let bytes):
            if let limit = request.options.maxResponseBytes, Int64(bytes.count) > limit {
                throw SwitchyardError.responseTooLarge(limit: limit)
            }
            response = Response(head, body: request.head.method == .head ? nil : HTTPBody(bytes))
        }
        let elapsed = context.startedAt.duration(to: .now)
        context.recordTimings {
            $0.firstByte = $0.firstByte ?? elapsed
            $0.total = $0.total ?? elapsed
        }
        return response
    }

    /// Sleeps for `delay`, ending early at the context's deadline or on cancellation.
    /// - Throws: ``SwitchyardError/Kind/cancelled`` when the task is cancelled,
    ///   ``SwitchyardError/Kind/timeout`` when the deadline comes first.
    static func wait(_ delay: Duration, context: ExchangeContext) async throws(SwitchyardError) {
        guard delay > .zero else { return }
        let wake = ContinuousClock.now.advanced(by: delay)
        let deadline = context.deadline.map { min($0, wake) } ?? wake
        do {
            try await Task.sleep(until: deadline, clock: .continuous)
        } catch {
            throw .cancelled
        }
        if deadline < wake {
            throw .timedOut("The stub was set to answer after \(delay).")
        }
    }
}
