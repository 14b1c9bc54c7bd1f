public import SwitchyardTransfers

/// Collects a progress stream in the background.
/// - Parameter progress: A transfer's progress updates.
/// - Returns: A task whose value is every update, once the stream ends.
public func collect(_ progress: AsyncStream<TransferProgress>) -> Task<[TransferProgress], Never> {
    Task {
        var updates: [TransferProgress] = []
        for await update in progress { updates.append(update) }
        return updates
    }
}
