import Foundation
import SwitchyardTestServer
import Testing

/// 1 GiB through `yard request` to a pipe: the body is streamed, so the yard process's peak resident
/// memory stays at 64 MiB or less, and `sha256sum` of the pipe is the body's digest; and 1 GiB
/// through the fleet's PostgreSQL cache, in and out. Run alone (the Makefile's `InBoundedMemory` pass).
@Suite(.serialized, .timeLimit(.minutes(10))) struct YardRequestInBoundedMemoryTests {
    static let oneGiB = 1 << 30

    /// The peak resident memory a request of any size may take: 64 MiB for the whole process.
    static let budgetKiB = 64 << 10

    /// The ceiling no transport may cross, known issue or not: 256 MiB, a quarter of the body. The
    /// URLSession figure the known issue covers (63–75 MiB) is far below it; buffering the body, or
    /// any growth with its size, is far above it.
    static let ceilingKiB = 256 << 10

    /// Every transport. On Linux, URLSession's peak is a known issue of FoundationNetworking, not of
    /// yard: no delegate backlog builds (`InlineDelegateQueue`; an unbounded backlog took this run to
    /// 117–482 MiB in six runs), but for every piece of at most 16 KiB that libcurl delivers,
    /// FoundationNetworking replaces a timer `DispatchSource` and frees the cancelled ones only once
    /// the socket runs dry, which a loopback transfer never lets happen: about 20 MiB per GiB (see
    /// "Memory of long transfers" in `URLSessionTransport`). A 1 KiB request already peaks at
    /// 50 MiB, so 1 GiB peaks at 63–75 MiB, whatever yard does with the body. The body's digest is
    /// still checked there, every transport stays under ``ceilingKiB`` outside the known issue, and
    /// the transport's own memory test (`TransfersInBoundedMemoryTests`) bounds its growth separately.
    @Test(arguments: ["curl", "ahc", "urlsession"])
    func oneGiBToAPipeInBoundedMemory(transport: String) async throws {
        let time = "/usr/bin/time"
        try #require(FileManager.default.isExecutableFile(atPath: time), "GNU time (apt-get install time) measures the peak")
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/bytes/\(Self.oneGiB)")
        let command = [time, "-f", "yard-peak-kib=%M", yardExecutablePath, "request", url, "--transport", transport]
            .map(shellQuoted).joined(separator: " ")
        let run = try await runProgram("sh", ["-c", "\(command) | sha256sum"])
        let peak = try #require(
            run.stderr.split(separator: "\n").last { $0.hasPrefix("yard-peak-kib=") }.flatMap { Int($0.dropFirst(14)) },
            "\(run.stderr)")
        #expect(peak <= Self.ceilingKiB, "\(transport): peak resident memory \(peak) KiB for 1 GiB, over the ceiling")
        let withinBudget = { #expect(peak <= Self.budgetKiB, "\(transport): peak resident memory \(peak) KiB for 1 GiB") }
        #if canImport(FoundationNetworking)
        if transport == "urlsession" {
            withKnownIssue("FoundationNetworking keeps a timer per received piece until the socket runs dry", isIntermittent: true) {
                withinBudget()
            }
        } else {
            withinBudget()
        }
        #else
        withinBudget()
        #endif
        // curl, as a reference client, reads the same deterministic bytes.
        let reference = try await runProgram("sh", ["-c", "curl -s \(shellQuoted(url)) | sha256sum"])
        #expect(run.stdout.prefix(64) == reference.stdout.prefix(64))
        #expect(run.stdout.count >= 64)
    }

    /// 1 GiB stored in the fleet's PostgreSQL cache by one `yard request` and served to another, both
    /// within the budget: the body streams into the database and back out, one row at a time.
    @Test func oneGiBStoredInTheFleetsCacheAndServedInBoundedMemory() async throws {
        let database = try YardFleetTests.databaseURL()
        let time = "/usr/bin/time"
        try #require(FileManager.default.isExecutableFile(atPath: time), "GNU time (apt-get install time) measures the peak")
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = "gib-\(UUID().uuidString.prefix(8))"
        let url = server.url("/cache/\(key)?max_age=600&bytes=\(Self.oneGiB)")
        let command = [
            time, "-f", "yard-peak-kib=%M", yardExecutablePath, "request", url, "--cache", database, "-w", "%{json}", "-o", "/dev/null"
        ]
        .map(shellQuoted).joined(separator: " ")
        var digests: [String] = []
        for expected in ["network", "cache"] {
            let run = try await runProgram("sh", ["-c", command])
            #expect(run.status == 0, "\(run.stderr)")
            let peak = try #require(
                run.stderr.split(separator: "\n").last { $0.hasPrefix("yard-peak-kib=") }.flatMap { Int($0.dropFirst(14)) },
                "\(run.stderr)")
            #expect(peak <= Self.budgetKiB, "\(expected): peak resident memory \(peak) KiB for 1 GiB through the fleet's cache")
            let summary = try jsonObject(run.stdout)
            #expect((summary["cache"] as? [String: Any])?["source"] as? String == expected)
            #expect(summary["body_bytes"] as? Int == Self.oneGiB)
            digests.append(summary["body_sha256"] as? String ?? "")
        }
        #expect(digests[0] == digests[1] && digests[0].count == 64)
        #expect(server.requestCount(path: "/cache/\(key)") == 1)
        _ = try await runProgram("psql", [database, "-q", "-c", "DELETE FROM switchyard_cache_entries WHERE resource LIKE '%\(key)%'"])
    }
}
