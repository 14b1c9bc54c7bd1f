import Foundation
public import Switchyard
public import SwitchyardTestServer

/// Sends a compression bomb through a client and watches the process's resident memory while
/// the transport refuses it: how a transport test proves that the size limit holds on decoded
/// bytes in bounded memory.
///
/// ```swift
/// let outcome = try await CompressionBombProbe.run(client: client, server: server)
/// #expect(outcome.error?.kind == .responseTooLarge)
/// #expect(outcome.peakGrowth < 64 << 20)
/// ```
public enum CompressionBombProbe {
    /// What one probe saw.
    public struct Outcome: Sendable {
        /// The error the exchange ended with (`nil` if the whole bomb was accepted).
        public var error: SwitchyardError?
        /// Decoded bytes the reader received before that.
        public var receivedBytes: Int
        /// The largest growth of resident memory over the baseline, sampled while reading and after.
        public var peakGrowth: Int
    }

    /// Requests `/gzip/bomb?bytes=decodedBytes` (zeros, about 1,000 : 1) with `limit`, reads the
    /// body, and samples resident memory every chunk.
    /// - Parameters:
    ///   - client: The client under test.
    ///   - server: A loopback server.
    ///   - decodedBytes: What the bomb inflates to.
    ///   - limit: `RequestOptions.maxResponseBytes` for the request.
    /// - Returns: The outcome.
    /// - Throws: Errors that are not `SwitchyardError`s.
    public static func run(
        client: Client, server: LoopbackServer, decodedBytes: Int = 1 << 30,
        limit: Int64 = 10_000_000
    ) async throws -> Outcome {
        var options = RequestOptions()
        options.maxResponseBytes = limit
        let url = server.url("/gzip/bomb?bytes=\(decodedBytes)")
        // Let the server build (and cache) the bomb before the baseline is taken.
        var warmUp = options
        warmUp.maxResponseBytes = 1
        _ = try? await client.send(try Request(url: url, options: warmUp))

        let baseline = residentBytes()
        var outcome = Outcome(error: nil, receivedBytes: 0, peakGrowth: 0)
        do {
            let response = try await client.stream(try Request(url: url, options: options))
            for try await chunk in response.body {
                outcome.receivedBytes += chunk.count
                outcome.peakGrowth = max(outcome.peakGrowth, residentBytes() - baseline)
            }
        } catch let error as SwitchyardError {
            outcome.error = error
        }
        outcome.peakGrowth = max(outcome.peakGrowth, residentBytes() - baseline)
        return outcome
    }

    /// The process's resident memory in bytes (Linux: /proc/self/statm; elsewhere 0).
    public static func residentBytes() -> Int {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }
}
