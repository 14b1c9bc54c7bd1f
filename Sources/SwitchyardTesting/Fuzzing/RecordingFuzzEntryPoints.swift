import Foundation

/// Entry points for the fuzzers in `Fuzz/`: recording files, with arbitrary bytes. Not API:
/// `@_spi(Fuzzing)` only.
@_spi(Fuzzing)
public enum RecordingFuzzEntryPoints {
    /// Decodes a recording file's bytes as ``ReplayingTransport`` loads them, then turns it into
    /// what a replay serves (head, body bytes, error).
    public static func recording(_ bytes: [UInt8]) {
        guard let exchange = try? JSONDecoder().decode(RecordedExchange.self, from: Data(bytes)) else { return }
        _ = RecordedHeader.httpFields(exchange.request.headers)
        _ = try? exchange.request.body?.decodedBytes()
        if let response = exchange.response {
            _ = try? response.makeHead()
            _ = try? response.body?.decodedBytes()
        }
        _ = exchange.error?.switchyardError
    }
}
