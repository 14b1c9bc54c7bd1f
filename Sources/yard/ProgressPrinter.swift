import Foundation
import Switchyard
import SwitchyardTransfers

/// Shows a transfer's progress on standard error: a bar redrawn in place on a terminal, otherwise
/// one plain line per 10 % step (`download: 30% (3145728 of 10485760 bytes)`; steps a throttled
/// update jumped over get a line without the counts), ending with a `100%` line when the transfer
/// completes (of unknown length: one `100% (N bytes)` line at the end).
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
            // One line per 10 % step, also for steps one throttled update jumped over.
            let decile = Int((fraction * 10).rounded(.down))
            while printedDecile < decile {
                printedDecile += 1
                guard printedDecile > 0 else { continue }
                let counts = printedDecile == decile ? " (\(update.completedBytes) of \(update.expectedBytes ?? 0) bytes)" : ""
                write("\(label): \(printedDecile * 10)%\(counts)\n")
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
