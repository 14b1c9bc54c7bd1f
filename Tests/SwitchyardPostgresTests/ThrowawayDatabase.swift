import CSpawn
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of a test's own (`scripts/test-postgres.sh` on another port), which the test
/// may stop and start again: the fault tests cannot stop the server every other test shares.
struct ThrowawayDatabase {
    let port: Int
    var url: String { "postgres://postgres@127.0.0.1:\(port)/switchyard_test" }

    /// Initialises and starts the server on `port`.
    static func start(port: Int) async throws -> ThrowawayDatabase {
        let database = ThrowawayDatabase(port: port)
        try await database.script("start")
        return database
    }

    /// Stops the server, keeping its data.
    func pause() async throws { try await script("pause") }
    /// Starts the stopped server again.
    func resume() async throws { try await script("resume") }
    /// Stops the server and removes its data.
    func stop() async throws { try await script("stop") }

    /// Runs the script with `command` on a thread of its own (it blocks while PostgreSQL starts or
    /// stops), its output going to this process's.
    private func script(_ command: String) async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let arguments = ["/usr/bin/env", "SWITCHYARD_POSTGRES_PORT=\(port)", root.path + "/scripts/test-postgres.sh", command]
        let status = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.run(arguments)) }.start()
        }
        try #require(status == 0, "scripts/test-postgres.sh \(command) on port \(port) exited with \(status)")
    }

    /// Runs the script through `CSpawn` (every descriptor but the pipes closed in the child: the
    /// server it starts must not inherit this process's sockets, or a test's closed connection would
    /// stay open in it and its peer would never see the disconnect), copying its output to ours.
    private static func run(_ arguments: [String]) -> Int32 {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        var output: Int32 = -1
        var errors: Int32 = -1
        guard cspawn_start(arguments[0], argv, &pid, &output, &errors) == 0 else { return -1 }
        for (source, destination) in [(output, STDOUT_FILENO), (errors, STDERR_FILENO)] {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                _ = buffer.withUnsafeBytes { write(destination, $0.baseAddress, count) }
            }
            close(source)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
