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
