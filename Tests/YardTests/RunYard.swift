import CSpawn
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `yard` executable and captures its output.
///
/// It spawns the child with `posix_spawn` (see `CSpawn`) rather than `Foundation.Process`: on Linux,
/// `Process.run()` of Swift 6.3 intermittently crashes the parent with an over-read while it lists
/// `/proc/self/fd` (swift-corelibs-foundation pull request 5472), which took down whole test runs.
///
/// The child is run and waited for on a thread of its own, never on one of the few threads of the
/// Swift concurrency pool: blocking those while a child runs on a busy machine starved every other
/// test in the process until their time limits expired.
///
/// - Parameter environment: Variables set for the child on top of this process's (through `/usr/bin/env`).
func runYard(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> (status: Int32, stdout: String, stderr: String)
{
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try runYardBlocking(arguments, environment: environment) }) }
        thread.start()
    }
}

/// Runs another program (e.g. `curl`, found on `PATH` through `/usr/bin/env`) the way ``runYard(_:environment:)`` runs yard.
func runProgram(_ name: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(
                with: Result {
                    let child = try SpawnedProcess(executable: "/usr/bin/env", arguments: [name] + arguments)
                    let (stdout, stderr) = try child.readOutput()
                    let status = try child.wait()
                    return (status, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
                })
        }
        thread.start()
    }
}

/// The path of the built `yard` executable, beside the test bundle.
var yardExecutablePath: String {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("yard").path
}

private func runYardBlocking(_ arguments: [String], environment: [String: String])
    throws -> (status: Int32, stdout: String, stderr: String)
{
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("yard").path
    let child =
        environment.isEmpty
        ? try SpawnedProcess(executable: executable, arguments: arguments)
        : try SpawnedProcess(
            executable: "/usr/bin/env",
            arguments: environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                + [executable] + arguments)
    let (stdout, stderr) = try child.readOutput()
    let status = try child.wait()
    return (status, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

/// A child process whose standard output and error are pipes to this process.
private struct SpawnedProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let pid: pid_t
    let stdout: Int32
    let stderr: Int32

    init(executable: String, arguments: [String]) throws {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        var stdout: Int32 = -1
        var stderr: Int32 = -1
        let result = cspawn_start(executable, argv, &pid, &stdout, &stderr)
        guard result == 0 else { throw Failure(description: "Starting \(executable) failed: errno \(result)") }
        self.pid = pid
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Reads both pipes to their ends, interleaved, so neither can fill up and stall the child.
    func readOutput() throws -> ([UInt8], [UInt8]) {
        defer {
            close(stdout)
            close(stderr)
        }
        var collected: [Int32: [UInt8]] = [stdout: [], stderr: []]
        var open = [stdout, stderr]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 else {
                if errno == EINTR { continue }
                throw Failure(description: "poll failed: errno \(errno)")
            }
            for entry in fds where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[entry.fd, default: []] += buffer[0..<count]
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        return (collected[stdout] ?? [], collected[stderr] ?? [])
    }

    /// Waits for the child and returns its exit status (128 + signal if a signal ended it).
    func wait() throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid failed: errno \(errno)") }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
