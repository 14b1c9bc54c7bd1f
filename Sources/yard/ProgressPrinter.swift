import Foundation
import Switchyard

/// Shows a transfer's progress on standard error: a bar redrawn in place on a terminal, otherwise
/// one plain line per 10 % (`download: 30% (3145728 of 10485760 bytes)`), ending with a `100%` line
/// when the transfer completes.
struct ProgressPrinter: Sendable {
    /// What is being transferred: `download` or `upload`.
    let label: String
    /// Whether to draw a bar in place (standard error is a terminal).
    let interactive: Bool

    /// Whether standard error is a terminal.
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Prints `progress` until it ends.
    func run(_ progress: AsyncStream<TransferProgress>) async {
        var printedDecile = -1
        var drewBar = false
        for await update in progress {
            if interactive {
                write("\r" + bar(update))
                drewBar = true
                continue
            }
            guard let fraction = update.fractionCompleted else {
                if update.isFinal { write("\(label): 100% (\(update.completedBytes) bytes)\n") }
                continue
            }
            let decile = Int((fraction * 10).rounded(.down))
            if decile > printedDecile, decile > 0 || update.isFinal {
                printedDecile = decile
                write("\(label): \(decile * 10)% (\(update.completedBytes) of \(update.expectedBytes ?? 0) bytes)\n")
            }
        }
        if interactive, drewBar { write("\n") }
    }

    /// `download [##########          ]  50%  12.3 MiB/s`.
    private func bar(_ update: TransferProgress) -> String {
        let width = 30
        let rate = String(format: "%.1f MiB/s", update.bytesPerSecond / 1_048_576)
        guard let fraction = update.fractionCompleted else {
            return "\(label) \(update.completedBytes) bytes  \(rate)"
        }
        let filled = Int((fraction * Double(width)).rounded(.down))
        let percent = Int((fraction * 100).rounded(.down))
        return "\(label) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(String(repeating: " ", count: 3 - String(percent).count))\(percent)%  \(rate)"
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
