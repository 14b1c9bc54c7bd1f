import Foundation
import SwitchyardPostgres
import Testing

/// The PostgreSQL server `make test` starts (`scripts/test-postgres.sh`), from
/// `SWITCHYARD_POSTGRES_URL`; a test that needs it fails with the way to start one when it is unset.
enum PostgresTestDatabase {
    static var url: String? { ProcessInfo.processInfo.environment["SWITCHYARD_POSTGRES_URL"] }

    /// A pool to the test database, or a recorded failure saying how to start one. The bound only
    /// guards against a hang (long, for a machine running the whole suite); it is never an
    /// expectation of speed.
    static func shared(operationTimeout: Duration = .seconds(180)) throws -> PostgresSharedState {
        guard let url else {
            Issue.record(
                "SWITCHYARD_POSTGRES_URL is not set: run `make test`, or `eval \"$(scripts/test-postgres.sh start)\"` first.")
            throw CancellationError()
        }
        return try PostgresSharedState(url: url, operationTimeout: operationTimeout)
    }

    /// A key no other test (or earlier run) uses.
    static func uniqueKey(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }
}
