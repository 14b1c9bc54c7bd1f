import Foundation
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTesting
import Testing

/// The conformance suite on libcurl, directly and behind the closure adapter.
@Suite("Conformance: curl", .serialized, .timeLimit(.minutes(5)))
struct CurlConformanceTests {
    static let curl = ConformanceSubject(name: "curl") { CurlTransport(configuration: .init($0)) }

    static let closureOverCurl = ConformanceSubject(name: "ClosureTransport over curl") { settings in
        let curl = CurlTransport(configuration: .init(settings))
        return ClosureTransport { request, context in try await curl.send(request, context: context) }
    }

    @Test(arguments: TransportConformance.checks)
    func curl(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.curl)
    }

    @Test(arguments: TransportConformance.checks)
    func closureAdapter(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.closureOverCurl)
    }
}

/// The conformance suite on the recording transport: recording an exchange must not change it.
@Suite("Conformance: RecordingTransport over curl", .serialized, .timeLimit(.minutes(5)))
struct RecordingConformanceTests {
    static let recordingOverCurl = ConformanceSubject(
        name: "RecordingTransport over curl",
        makeTransportWith: { settings in
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("switchyard-recording-\(UUID().uuidString)")
            return try RecordingTransport(wrapping: CurlTransport(configuration: .init(settings)), directory: directory)
        },
        shutdown: { transport in
            if let recorder = transport as? RecordingTransport {
                try? FileManager.default.removeItem(at: recorder.directory)
            }
        }
    )

    @Test(arguments: TransportConformance.checks)
    func recording(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.recordingOverCurl)
    }
}

extension CurlTransport.Configuration {
    /// The default configuration with a conformance check's settings.
    init(_ settings: ConformanceTransportSettings) {
        self.init()
        if let maxConnectionsPerHost = settings.maxConnectionsPerHost { self.maxConnectionsPerHost = maxConnectionsPerHost }
        if let idleTimeout = settings.idleTimeout { self.idleTimeout = idleTimeout }
    }
}
