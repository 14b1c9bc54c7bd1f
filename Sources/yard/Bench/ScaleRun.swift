import Foundation
import Switchyard
import SwitchyardJSON
import SwitchyardTestServer

/// `yard bench --scale`: holds K requests in flight at once against a slow endpoint and reports
/// memory per in-flight request, threads, and how many completed.
struct ScaleRun {
    let transports: [TransportChoice]
    let levels: [Int]
    let delayMilliseconds: Int
    let server: LoopbackServer?
    let url: String?
    let json: Bool

    func run() async throws {
        let target = url ?? server?.url("/delay/\(delayMilliseconds)") ?? ""
        var rows: [JSONValue] = []
        var table = [["transport", "in flight", "completed", "errors", "elapsed s", "KiB per request", "peak threads"]]
        for transport in transports {
            for level in levels {
                StatusLine.show("\(transport.rawValue): \(level) in flight")
                let result = try await transport.withTransport {
                    try await measure(Client(transport: $0, interceptors: []), level: level, url: target)
                }
                rows.append(
                    .object([
                        "transport": .string(transport.rawValue), "in_flight": .integer(Int64(level)),
                        "completed": .integer(Int64(result.completed)), "errors": .integer(Int64(result.errors)),
                        "elapsed_s": .rounded(result.elapsed.milliseconds / 1_000),
                        "kib_per_request": .rounded(result.bytesPerRequest / 1_024), "threads": .integer(Int64(result.threads)),
                        "first_error": result.firstError.map { .string($0) } ?? .null
                    ]))
                table.append([
                    transport.rawValue, "\(level)", "\(result.completed)", "\(result.errors)",
                    String(format: "%.1f", result.elapsed.milliseconds / 1_000),
                    String(format: "%.1f", result.bytesPerRequest / 1_024), "\(result.threads)"
                ])
            }
        }
        StatusLine.clear()
        if json {
            print(JSONValue.object(["scale": .array(rows)]).description)
        } else {
            let widths = table[0].indices.map { column in table.map { $0[column].count }.max() ?? 0 }
            for row in table {
                print(
                    row.enumerated().map { column, cell in
                        let padding = String(repeating: " ", count: widths[column] - cell.count)
                        return column == 0 ? cell + padding : padding + cell
                    }.joined(separator: "  "))
            }
        }
    }

    struct Result {
        var completed = 0
        var errors = 0
        var firstError: String?
        var elapsed: Duration = .zero
        var bytesPerRequest = 0.0
        var threads = 0
    }

    /// Starts `level` requests at once, samples memory while they are all in flight, waits for all.
    private func measure(_ client: Client, level: Int, url: String) async throws -> Result {
        let request = try Request(url: url)
        let baseline = ProcessStats.residentBytes
        let threads = ThreadSampler()
        let started = ContinuousClock.now
        var result = Result()
        var peak = baseline
        await withTaskGroup(of: String?.self) { group in
            for _ in 0..<level {
                group.addTask {
                    do {
                        _ = try await client.send(request)
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
            }
            // Sample memory while the requests wait on the slow endpoint.
            let sampler = Task {
                var highest = baseline
                while !Task.isCancelled {
                    highest = max(highest, ProcessStats.residentBytes)
                    try? await Task.sleep(for: .milliseconds(20))
                }
                return highest
            }
            for await error in group {
                if let error {
                    result.errors += 1
                    if result.firstError == nil { result.firstError = error }
                } else {
                    result.completed += 1
                }
            }
            sampler.cancel()
            peak = await sampler.value
        }
        result.elapsed = started.duration(to: .now)
        result.bytesPerRequest = Double(max(0, peak - baseline)) / Double(level)
        result.threads = threads.stop()
        return result
    }
}
