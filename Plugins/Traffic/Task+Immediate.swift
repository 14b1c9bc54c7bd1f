import SwitchyardCore

extension Task where Failure == Never {
    /// A task owned by the caller's code that starts on the caller's thread and runs until it first
    /// suspends (`Task.immediate`) where the platform has it, otherwise an ordinary task: work that
    /// completes without suspending (an answer from memory) then costs no thread hop.
    static func startingImmediately(_ operation: @escaping @Sendable () async -> Success) -> Task {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }
}
