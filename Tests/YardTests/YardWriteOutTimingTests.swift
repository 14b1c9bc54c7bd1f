import Foundation
import SwitchyardTestServer
import Testing

/// `yard request -w` with curl's timing and connection variables, beside `curl -w` itself.
@Suite(.timeLimit(.minutes(2))) struct YardWriteOutTimingTests {
    /// curl's variables, one `name=value` per line.
    static let variables = [
        "time_namelookup", "time_connect", "time_appconnect", "time_pretransfer", "time_starttransfer", "time_total",
        "num_connects", "size_download", "speed_download", "remote_ip", "remote_port", "http_version"
    ]
    static let format = variables.map { "\($0)=%{\($0)}" }.joined(separator: "\\n") + "\\n"
    static let phases = Array(variables.prefix(6))

    /// The lines of a `-w` output as a dictionary.
    private func values(_ output: String) -> [String: String] {
        Dictionary(
            output.split(separator: "\n").compactMap { line in
                line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
            },
            uniquingKeysWith: { $1 })
    }

    /// The shape of each variable's value, as curl prints it: seconds with six decimals for the
    /// timings, whole numbers for the counts and the speed.
    private func shape(of name: String, _ value: String) -> String {
        if name.hasPrefix("time_") {
            return value.wholeMatch(of: /\d+\.\d{6}/) != nil ? "seconds" : "other: \(value)"
        }
        if ["num_connects", "size_download", "speed_download", "remote_port"].contains(name) {
            return value.wholeMatch(of: /\d+/) != nil ? "integer" : "other: \(value)"
        }
        return value
    }

    /// Over TLS on curl, `yard -w` and `curl -w` print the same variables in the same forms, with the
    /// same connection facts; yard's phases are present and in order.
    @Test func curlsVariablesOverTLSSideBySideWithCurl() async throws {
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        let server = try await LoopbackServer.start(.init(tls: .init(identity: certificates.server)))
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/bytes/5000")
        let ca = certificates.ca.certificateFile
        let yardRun = try await runYard(["request", url, "-o", "/dev/null", "--cacert", ca, "-w", Self.format])
        #expect(yardRun.status == 0, "\(yardRun.stderr)")
        let curlRun = try await runProgram("curl", ["-s", url, "-o", "/dev/null", "--cacert", ca, "-w", Self.format])
        #expect(curlRun.status == 0, "\(curlRun.stderr)")
        let yard = values(yardRun.stdout)
        let curl = values(curlRun.stdout)
        #expect(Set(yard.keys) == Set(Self.variables), "\(yardRun.stdout)")
        for name in Self.variables {
            #expect(
                shape(of: name, yard[name] ?? "") == shape(of: name, curl[name] ?? ""),
                "\(name): yard \(yard[name] ?? "-"), curl \(curl[name] ?? "-")")
        }
        let seconds = Self.phases.map { Double(yard[$0] ?? "") ?? -1 }
        #expect(seconds.allSatisfy { $0 > 0 }, "every phase over a new TLS connection: \(yardRun.stdout)")
        #expect(seconds == seconds.sorted(), "phases in order: \(yardRun.stdout)")
        #expect(yard["num_connects"] == "1" && yard["size_download"] == "5000")
        #expect(yard["remote_ip"] == "127.0.0.1" && yard["remote_port"] == String(server.port))
        #expect(yard["http_version"] == "1.1")
        #expect((Int(yard["speed_download"] ?? "") ?? 0) > 0)
    }

    /// Per transport over plain HTTP: what it can tell is reported, and every phase it cannot is
    /// `0.000000`, as curl prints a phase it did not go through (`time_appconnect` without TLS).
    @Test(arguments: ["curl", "ahc", "urlsession"])
    func eachTransportReportsWhatItCanTell(_ transport: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard([
            "request", server.url("/small"), "-o", "/dev/null", "--transport", transport, "-w", Self.format
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let output = values(run.stdout)
        func reported(_ name: String) -> Bool { (Double(output[name] ?? "") ?? 0) > 0 }
        #expect(output["time_appconnect"] == "0.000000")
        #expect(reported("time_starttransfer") && reported("time_total"))
        let seconds = Self.phases.compactMap { Double(output[$0] ?? "") }.filter { $0 > 0 }
        #expect(seconds == seconds.sorted(), "\(run.stdout)")
        switch transport {
        case "urlsession":
            // FoundationNetworking reports no metrics: no connection facts at all.
            #expect(!reported("time_namelookup") && !reported("time_connect") && !reported("time_pretransfer"))
            #expect(output["num_connects"] == "0" && output["remote_ip"] == "" && output["remote_port"] == "0")
        default:
            #expect(reported("time_namelookup") == (transport == "curl"))  // AsyncHTTPClient does not tell it
            #expect(reported("time_connect") && reported("time_pretransfer"))
            #expect(output["num_connects"] == "1")
            #expect(output["remote_ip"] == "127.0.0.1" && output["remote_port"] == String(server.port))
        }
    }
}
