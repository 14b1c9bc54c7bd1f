import Foundation
import Switchyard

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `yard request` writes the response: raw bytes to a file descriptor (standard output, or a
/// file `-o` names that is written in place), with `write(2)` as each chunk arrives, so memory stays
/// bounded whatever the body's size and no byte is decoded or changed.
final class OutputSink {
    /// The descriptor written to.
    private let descriptor: Int32
    /// Whether this sink opened the descriptor (and closes it).
    private let ownsDescriptor: Bool
    /// The name used in error messages.
    private let name: String

    /// Standard output. A closed pipe (`yard request URL | head -c 10`) then fails the write with
    /// `EPIPE` (exit status 23, as curl) instead of ending the process with `SIGPIPE`.
    static func standardOutput() -> OutputSink {
        signal(SIGPIPE, SIG_IGN)
        return OutputSink(descriptor: STDOUT_FILENO, ownsDescriptor: false, name: "standard output")
    }

    /// The file at `path`, created or truncated.
    /// - Parameter path: The file, e.g. `/dev/null`.
    /// - Throws: ``SwitchyardError/Kind/outputFailed`` when it cannot be opened for writing.
    static func file(atPath path: String) throws(SwitchyardError) -> OutputSink {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SwitchyardError(.outputFailed, "Cannot open '\(path)' for writing: \(String(cString: strerror(errno))).")
        }
        return OutputSink(descriptor: descriptor, ownsDescriptor: true, name: "'\(path)'")
    }

    private init(descriptor: Int32, ownsDescriptor: Bool, name: String) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.name = name
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Whether `path` names something `-o` must write in place rather than through `FILE.part` and a
    /// rename: `-` (standard output), or an existing file that is not a regular file (`/dev/null`, a pipe).
    /// - Parameter path: The `-o` argument.
    static func writesInPlace(_ path: String) -> Bool {
        if path == "-" { return true }
        // Foundation's file type (its lstat: a symbolic link is written through, in place, as curl does).
        guard let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType else {
            return false
        }
        return type != .typeRegular
    }

    /// Writes every byte of `bytes`, retrying short writes and interrupted calls.
    /// - Parameter bytes: The bytes, as received.
    /// - Throws: ``SwitchyardError/Kind/outputFailed`` when the descriptor refuses them.
    func write(_ bytes: some Collection<UInt8>) throws(SwitchyardError) {
        let failure: Int32? =
            bytes.withContiguousStorageIfAvailable { buffer in
                writeAll(UnsafeRawBufferPointer(buffer))
            } ?? Array(bytes).withUnsafeBytes { writeAll($0) }
        if let failure {
            throw SwitchyardError(.outputFailed, "Failure writing output to \(name): \(String(cString: strerror(failure))).")
        }
    }

    /// Writes `text` as UTF-8.
    /// - Parameter text: The text, e.g. a `-w` expansion.
    /// - Throws: ``SwitchyardError/Kind/outputFailed`` when the descriptor refuses it.
    func write(_ text: String) throws(SwitchyardError) {
        try write(Array(text.utf8))
    }

    /// The `errno` of a failed write, or `nil` once every byte is written.
    private func writeAll(_ buffer: UnsafeRawBufferPointer) -> Int32? {
        guard var next = buffer.baseAddress else { return nil }
        var remaining = buffer.count
        while remaining > 0 {
            let written = systemWrite(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            next += written
            remaining -= written
        }
        return nil
    }
}

/// `write(2)`, named apart from ``OutputSink``'s own `write` methods.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
