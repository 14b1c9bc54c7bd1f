import Foundation

/// `text` quoted for `sh`: in single quotes, each single quote written as `'\''`.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Runs `yard request` with `arguments` piped into `sha256sum`, as a user would check a download, and
/// returns yard's exit status (through `PIPESTATUS`-free `sh`: the pipeline's status is sha256sum's,
/// so yard's is written to standard error) and the digest sha256sum printed.
func yardRequestDigest(_ arguments: [String]) async throws -> (status: Int32, sha256: String, stderr: String) {
    let command = ([yardExecutablePath, "request"] + arguments).map(shellQuoted).joined(separator: " ")
    let run = try await runProgram("sh", ["-c", "{ \(command); echo \"yard-exit=$?\" >&2; } | sha256sum"])
    let exit = run.stderr.split(separator: "\n").last { $0.hasPrefix("yard-exit=") }.flatMap { Int32($0.dropFirst(10)) } ?? -1
    return (exit, String(run.stdout.prefix(64)), run.stderr)
}
