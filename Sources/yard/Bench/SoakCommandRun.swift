import ArgumentParser
import Foundation
import SwitchyardConformance
import SwitchyardJSON
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
        if json { print(JSONValue.object(["soak": .array(reports.map(Self.json))]).description) }
        if reports.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }

    static func json(_ report: SoakReport) -> JSONValue {
        func counts<Key>(_ table: [Key: Int], _ name: (Key) -> String) -> JSONValue {
            .object(JSONObject(table.map { (name($0.key), JSONValue.integer(Int64($0.value))) }.sorted { $0.0 < $1.0 }))
        }
        func figures(_ value: SoakProcessFigures?) -> JSONValue {
            guard let value else { return .null }
            return .object([
                "fds": .integer(Int64(value.openFileDescriptors)), "threads": .integer(Int64(value.threads)),
                "rss_bytes": .integer(Int64(value.residentBytes))
            ])
        }
        let configuration = report.configuration
        func int(_ value: Int) -> JSONValue { .integer(Int64(value)) }
        let duration = report.duration.components
        var members: JSONObject = [:]
        members["transport"] = .string(report.transport)
        members["requests"] = int(configuration.requests)
        members["concurrency"] = int(configuration.concurrency)
        members["faults"] = .string(configuration.faults.description)
        members["deadline_s"] = int(Int(configuration.deadline.components.seconds))
        members["grace_s"] = int(Int(configuration.grace.components.seconds))
        members["duration_s"] = .rounded(Double(duration.seconds) + Double(duration.attoseconds) / 1e18)
        members["gets"] = int(report.gets)
        members["posts"] = int(report.posts)
        members["completed"] = int(report.completed)
        members["completed_by_status"] = counts(report.completedByStatus) { String($0) }
        members["verified"] = int(report.verified)
        members["failed"] = int(report.failed)
        members["failed_by_kind"] = counts(report.failedByKind) { $0 }
        members["hung"] = int(report.hung)
        members["duplicated_posts"] = int(report.duplicatedPosts)
        members["corrupted"] = int(report.corrupted)
        members["repeated_gets"] = int(report.repeatedGets)
        members["late_arrivals"] = int(report.lateArrivals)
        members["injected_faults"] = counts(report.injectedFaults) { $0 }
        func series(_ series: SoakReport.Memory.Series?) -> JSONValue {
            guard let series else { return .null }
            return .object([
                "start": int(series.start), "middle": int(series.middle), "end": int(series.end),
                "drift": .rounded(series.drift)
            ])
        }
        func census(_ census: SoakDescriptorCensus?) -> JSONValue {
            census.map { counts($0.counts) { $0 } } ?? .null
        }
        members["rss_bytes"] = series(report.memory?.resident)
        members["heap_in_use_bytes"] = series(report.memory?.heapInUse)
        members["rss_after_release_bytes"] = report.memory.map { int($0.residentAfterRelease) } ?? .null
        members["baseline"] = figures(report.baseline)
        members["after_shutdown"] = figures(report.afterShutdown)
        members["fds_at_baseline"] = census(report.baselineDescriptors)
        members["fds_after_shutdown"] = census(report.descriptorsAfterShutdown)
        members["samples"] = .array(report.samples.map { .string($0) })
        members["passed"] = .bool(report.passed)
        return .object(members)
    }
}
