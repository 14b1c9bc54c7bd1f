import Foundation
import Testing

/// `yard bench`'s outputs follow their documented formats (figures are not asserted: shared machines are noisy).
@Suite(.timeLimit(.minutes(3)))
struct YardBenchTests {
    static let small = ["--requests", "50", "--warmup", "5"]

    @Test func jsonHasOneObjectPerCellWithTheDocumentedKeys() async throws {
        let run = try await runYard(["bench", "--transport", "all", "--chain", "all", "--concurrency", "1,4", "--json"] + Self.small)
        #expect(run.status == 0, "\(run.stderr)")
        let results = try #require(try jsonObject(run.stdout)["results"] as? [[String: Any]])
        #expect(results.count == 3 * 3 * 2)
        let keys: Set<String> = [
            "transport", "chain", "concurrency", "payload", "requests", "errors", "rps", "p50_ms",
            "p90_ms", "p99_ms", "max_ms", "cpu_ms_per_1k", "peak_rss_mb", "threads"
        ]
        for result in results {
            #expect(Set(result.keys) == keys)
            #expect(result["errors"] as? Int == 0)
            #expect(result["requests"] as? Int == 50)
            let p50 = try #require(result["p50_ms"] as? Double)
            let p99 = try #require(result["p99_ms"] as? Double)
            #expect(p50 <= p99)
            #if os(Linux)
            // Counted from /proc/self/task: the main thread and at least one of the concurrency pool.
            #expect((result["threads"] as? Int ?? 0) >= 2)
            #endif
        }
        #expect(Set(results.compactMap { $0["transport"] as? String }) == ["curl", "urlsession", "ahc"])
    }

    @Test func resultLinesMatchTheAnchorsFormat() async throws {
        let run = try await runYard(["bench", "--transport", "curl", "--chain", "all", "--result-line"] + Self.small)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for (line, client) in zip(lines, ["yardcurl", "yardcurlstandard", "yardcurldefault"]) {
            #expect(line.hasPrefix("RESULT client=\(client) url=http://127.0.0.1:"))
            for field in ["c=1", "ok=50", "errors=0", "elapsed_s=", "rps=", "p50_us=", "p99_us=", "bytes=650", "mb_s="] {
                #expect(line.contains(field), "\(field) in \(line)")
            }
        }
    }

    @Test func bothLoadShapesIssueExactlyTheRequestedCount() async throws {
        for shape in [[], ["--task-per-request"]] {
            let run = try await runYard(["bench", "--transport", "curl", "--concurrency", "7", "--result-line"] + shape + Self.small)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("c=7 ok=50 errors=0"), "\(shape): \(run.stdout)")
        }
    }

    @Test func csvAndChartAreWritten() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("yard-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("bench.csv").path
        let chart = directory.appendingPathComponent("bench.svg").path
        let run = try await runYard(
            ["bench", "--concurrency", "1,2", "--payload", "small,64k", "--csv", csv, "--chart", chart] + Self.small)
        #expect(run.status == 0)
        #expect(run.stdout.contains("req/s"))
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        #expect(rows.first?.hasPrefix("transport,chain,concurrency,payload,requests,errors,rps") == true)
        #expect(rows.count == 5)
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("curl · bare · 64k"))
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test func scaleModeHoldsRequestsInFlightAndCompletesThem() async throws {
        let run = try await runYard(["bench", "--scale", "--in-flight", "50", "--delay-ms", "200", "--transport", "all", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try #require(try jsonObject(run.stdout)["scale"] as? [[String: Any]])
        #expect(rows.count == 3)
        for row in rows {
            #expect(row["completed"] as? Int == 50, "\(row)")
            #expect(row["errors"] as? Int == 0)
        }
    }

    @Test func soakModeReportsEveryRequestAndPassesOnEveryTransport() async throws {
        let run = try await runYard([
            "bench", "--soak", "--requests", "300", "--concurrency", "8", "--warmup", "20",
            "--transport", "all", "--faults", "reset=0.05,truncate=0.05,malformed=0.05,burst=0.02",
            "--fault-seed", "3", "--json"
        ])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        // Standard error is a pipe here: progress comes as plain lines, without terminal escape codes.
        #expect(!run.stderr.contains("\u{1B}"))
        #expect(run.stderr.contains("curl: faults"))
        let rows = try #require(try jsonObject(run.stdout)["soak"] as? [[String: Any]])
        #expect(rows.map { $0["transport"] as? String } == ["curl", "urlsession", "ahc"])
        for row in rows {
            #expect(row["passed"] as? Bool == true, "\(row)")
            #expect(row["hung"] as? Int == 0 && row["duplicated_posts"] as? Int == 0 && row["corrupted"] as? Int == 0)
            let completed = try #require(row["completed"] as? Int)
            let failed = try #require(row["failed"] as? Int)
            #expect(completed + failed == 300)
            #expect(failed > 0, "faults were injected: \(row)")
            // The process figures: resident memory and heap in use over the run, descriptors by kind.
            let resident = try #require(row["rss_bytes"] as? [String: Any])
            #expect((resident["end"] as? Int ?? 0) > 0)
            let heap = try #require(row["heap_in_use_bytes"] as? [String: Any])
            // 0 under a sanitizer, whose allocator glibc's figures do not see.
            let heapEnd = try #require(heap["end"] as? Int)
            #expect(heapEnd >= 0 && heapEnd < (resident["end"] as? Int ?? 0))
            let descriptors = try #require(row["fds_after_shutdown"] as? [String: Int])
            #expect(descriptors["tcp listening", default: 0] >= 1, "the embedded server listens: \(descriptors)")
        }
    }

    @Test func aFaultSpecificationThatCannotBeReadIsRefused() async throws {
        let run = try await runYard(["bench", "--soak", "--faults", "explode=0.1"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("Unknown fault 'explode'"), "\(run.stderr)")
    }
}
