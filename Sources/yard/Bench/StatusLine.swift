import Foundation

/// A progress status on standard error: redrawn in place on a terminal, written as plain lines
/// (no escape codes) when standard error is a file or a pipe.
enum StatusLine {
    /// Shows `text` (followed by an ellipsis).
    static func show(_ text: String) {
        let line = ProgressPrinter.standardErrorIsTerminal ? "\r\u{1B}[K\(text) …" : "\(text) …\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Removes the status from a terminal (nothing to remove from plain lines).
    static func clear() {
        guard ProgressPrinter.standardErrorIsTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
