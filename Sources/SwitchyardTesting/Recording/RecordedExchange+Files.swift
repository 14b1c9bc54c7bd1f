public import Foundation
public import SwitchyardCore

extension RecordedExchange {
    /// Loads every `*.json` exchange file of a recording directory, in recorded order.
    ///
    /// ```swift
    /// let exchanges = try RecordedExchange.loadAll(from: directory)
    /// #expect(exchanges.map(\.request.target) == ["GET /users/42", "POST /users"])
    /// ```
    /// - Parameter directory: A directory written by ``RecordingTransport``.
    /// - Returns: The exchanges, sorted by ``sequence`` (then by file name).
    /// - Throws: `SwitchyardError.Kind.invalidRequest` when the directory cannot be read;
    ///   `SwitchyardError.Kind.decoding` naming the file that is not a recorded exchange.
    public static func loadAll(from directory: URL) throws(SwitchyardError) -> [RecordedExchange] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .invalidRequest("Cannot read the recording directory \(directory.path): \(error)")
        }
        var loaded: [(name: String, exchange: RecordedExchange)] = []
        for name in names where name.hasSuffix(".json") {
            let url = directory.appendingPathComponent(name)
            do {
                let data = try Data(contentsOf: url)
                loaded.append((name, try JSONDecoder().decode(RecordedExchange.self, from: data)))
            } catch {
                throw SwitchyardError(
                    .decoding, "\(url.path) is not a recorded exchange: \(error)",
                    underlyingError: error)
            }
        }
        loaded.sort { ($0.exchange.sequence, $0.name) < ($1.exchange.sequence, $1.name) }
        return loaded.map(\.exchange)
    }
}
