import ArgumentParser
import Foundation
import SwitchyardConformance
import SwitchyardTestServer

/// `yard bench --soak`: ``SoakRun`` on each chosen transport, one after another, as a table or JSON;
/// exits 1 when any request hung, any POST was duplicated or any body was corrupted.
struct SoakCommandRun {
    /// The faults when `--faults` is not given.
    static let defaultSpec = "reset=0.01,stall=0.005,truncate=0.01,malformed=0.005,burst=0.01"

    let transports: [TransportChoice]
    let configuration: SoakConfiguration
    let json: Bool

    /// The plan of `--faults SPEC --fault-seed N` (`spec` `nil`: ``defaultSpec``).
    static func plan(_ spec: String?, seed: UInt64) throws -> FaultPlan {
        do {
            return try FaultPlan(spec: spec ?? defaultSpec, seed: seed)
        } catch {
            throw ValidationError("--faults: \(error.description)")
        }
    }

    func run() async throws {
        var reports: [SoakReport] = []
        for choice in transports {
            let total = configuration.requests
            var run = SoakRun(configuration: configuration, transportName: choice.rawValue) { choice.makeTransport() }
            run.progress = { ended in
                StatusLine.show("\(choice.rawValue): \(ended)/\(total)")
            }
            FileHandle.standardError.write(Data("\(choice.rawValue): faults \(configuration.faults)\n".utf8))
            let report = try await run.run()
            StatusLine.clear()
            reports.append(report)
            if !json { print(report.table + "\n") }
        }
        if json { print(JSONValue.object([("soak", .array(reports.map(Self.json)))]).rendered) }
        if reports.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }

    static func json(_ report: SoakReport) -> JSONValue {
        func counts<Key>(_ table: [Key: Int], _ name: (Key) -> String) -> JSONValue {
            .object(table.map { (name($0.key), JSONValue.int(Int64($0.value))) }.sorted { $0.0 < $1.0 })
        }
        func figures(_ value: SoakProcessFigures?) -> JSONValue {
            guard let value else { return .null }
            return .object([
                ("fds", .int(Int64(value.openFileDescriptors))), ("threads", .int(Int64(value.threads))),
                ("rss_bytes", .int(Int64(value.residentBytes)))
            ])
        }
        let configuration = report.configuration
        func int(_ value: Int) -> JSONValue { .int(Int64(value)) }
        let duration = report.duration.components
        var members: [(String, JSONValue)] = []
        members.append(("transport", .string(report.transport)))
        members.append(("requests", int(configuration.requests)))
        members.append(("concurrency", int(configuration.concurrency)))
        members.append(("faults", .string(configuration.faults.description)))
        members.append(("deadline_s", int(Int(configuration.deadline.components.seconds))))
        members.append(("grace_s", int(Int(configuration.grace.components.seconds))))
        members.append(("duration_s", .double(Double(duration.seconds) + Double(duration.attoseconds) / 1e18)))
        members.append(("gets", int(report.gets)))
        members.append(("posts", int(report.posts)))
        members.append(("completed", int(report.completed)))
        members.append(("completed_by_status", counts(report.completedByStatus) { String($0) }))
        members.append(("verified", int(report.verified)))
        members.append(("failed", int(report.failed)))
        members.append(("failed_by_kind", counts(report.failedByKind) { $0 }))
        members.append(("hung", int(report.hung)))
        members.append(("duplicated_posts", int(report.duplicatedPosts)))
        members.append(("corrupted", int(report.corrupted)))
        members.append(("repeated_gets", int(report.repeatedGets)))
        members.append(("late_arrivals", int(report.lateArrivals)))
        members.append(("injected_faults", counts(report.injectedFaults) { $0 }))
        func series(_ series: SoakReport.Memory.Series?) -> JSONValue {
            guard let series else { return .null }
            return .object([
                ("start", int(series.start)), ("middle", int(series.middle)), ("end", int(series.end)),
                ("drift", .double(series.drift))
            ])
        }
        func census(_ census: SoakDescriptorCensus?) -> JSONValue {
            census.map { counts($0.counts) { $0 } } ?? .null
        }
        members.append(("rss_bytes", series(report.memory?.resident)))
        members.append(("heap_in_use_bytes", series(report.memory?.heapInUse)))
        members.append(("rss_after_release_bytes", report.memory.map { int($0.residentAfterRelease) } ?? .null))
        members.append(("baseline", figures(report.baseline)))
        members.append(("after_shutdown", figures(report.afterShutdown)))
        members.append(("fds_at_baseline", census(report.baselineDescriptors)))
        members.append(("fds_after_shutdown", census(report.descriptorsAfterShutdown)))
        members.append(("samples", .array(report.samples.map { .string($0) })))
        members.append(("passed", .bool(report.passed)))
        return .object(members)
    }
}
