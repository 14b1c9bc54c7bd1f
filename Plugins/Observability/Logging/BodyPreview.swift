import SwitchyardCore

/// Keeps the first bytes of a body as they pass (a ``BodyTap``), and reports once when it ends,
/// fails, or is abandoned.
final class BodyPreview: BodyTap {
    private struct State {
        var bytes: [UInt8] = []
        var total = 0
        var reported = false
    }

    private let limit: Int
    private let state = Lock(State())
    private let report: @Sendable (_ preview: [UInt8], _ total: Int, _ outcome: String) -> Void

    init(limit: Int, report: @escaping @Sendable (_ preview: [UInt8], _ total: Int, _ outcome: String) -> Void) {
        self.limit = limit
        self.report = report
    }

    deinit {
        finish("abandoned")
    }

    func received(_ chunk: ArraySlice<UInt8>) {
        state.withLock { state in
            state.total += chunk.count
            let room = limit - state.bytes.count
            if room > 0 { state.bytes.append(contentsOf: chunk.prefix(room)) }
        }
    }

    func ended() throws { finish("complete") }

    func failed(_ error: SwitchyardError) { finish("failed: \(error.kind.rawValue)") }

    private func finish(_ outcome: String) {
        let snapshot = state.withLock { state -> (preview: [UInt8], total: Int)? in
            guard !state.reported else { return nil }
            state.reported = true
            return (state.bytes, state.total)
        }
        if let snapshot { report(snapshot.preview, snapshot.total, outcome) }
    }

    /// The preview as text: UTF-8 with control characters escaped, or `<n bytes binary>`.
    static func render(_ bytes: [UInt8], total: Int) -> String {
        let suffix = total > bytes.count ? "… (\(total) bytes)" : ""
        // A preview may end inside a multi-byte character: allow up to 3 bytes to be dropped.
        let decoded = (0...min(3, bytes.count)).lazy.compactMap { String(validating: bytes.dropLast($0), as: UTF8.self) }.first
        guard let text = decoded else { return "<\(total) bytes binary>" }
        let printable = text.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard printable else { return "<\(total) bytes binary>" }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            case "\r": escaped.append(contentsOf: "\\r".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped) + suffix
    }
}
