import SwitchyardCore

extension TransferLifecycle.Action {
    /// Publishes the state the action carries, if any, to the transfer's observers: a final state
    /// ends `progress` first, so that whoever is told the transfer ended finds its progress
    /// complete. The owner calls this under its lock (the broadcast's lock is taken inside it,
    /// never the other way round), then starts or cancels a run as the action says.
    func publish(to broadcast: StateBroadcast<TransferState<Success>>, ending progress: ProgressReporter) {
        switch self {
        case .startRun(_, let state), .cancelRun(let state), .publish(let state):
            broadcast.publish(state)
        case .finish(let final, _):
            progress.finish()
            broadcast.finish(with: final)
        case .ignore:
            break
        }
    }
}

extension StateBroadcast {
    /// The transfer's result once this broadcast of its states finishes; cancelling the awaiting
    /// task runs `cancel` (which ends the transfer, and so the wait).
    /// - Parameter cancel: Cancels the transfer.
    /// - Returns: The success value of a transfer that succeeded.
    /// - Throws: The transfer's error, or `SwitchyardError.Kind.cancelled`.
    func transferResult<Success>(cancel: @escaping @Sendable () -> Void) async throws(SwitchyardError) -> Success
    where State == TransferState<Success> {
        let final = await withTaskCancellationHandler {
            await finalState()
        } onCancel: {
            cancel()
        }
        switch final {
        case .succeeded(let result): return result
        case .failed(let error): throw error
        default: throw .cancelled
        }
    }
}
