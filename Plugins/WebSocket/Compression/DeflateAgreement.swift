import SwitchyardCore

/// What a handshake agreed about permessage-deflate (RFC 7692 §7.1): the offer a client sends and
/// the server's answer, checked as the RFC says a client must.
struct DeflateAgreement: Equatable {
    /// Whether we must compress every message on its own.
    var clientNoContextTakeover: Bool
    /// The window of our compressor.
    var clientWindowBits: Int
    /// Whether the server compresses every message on its own (our inflater may then reset).
    var serverNoContextTakeover: Bool

    /// The `Sec-WebSocket-Extensions` value of the offer.
    static func offer(_ settings: WebSocketCompression) -> String {
        var offer = "permessage-deflate; client_max_window_bits"
        if settings.windowBits < 15 { offer += "=\(settings.windowBits)" }
        if settings.noContextTakeover { offer += "; client_no_context_takeover; server_no_context_takeover" }
        return offer
    }

    /// Reads the server's `Sec-WebSocket-Extensions` answers.
    /// - Returns: The agreement, or `nil` when the server declined (no extension in its answer).
    /// - Throws: ``SwitchyardCore/SwitchyardError/Kind/webSocketHandshake`` for an extension we did not
    ///   offer, an unknown or repeated parameter, or a value out of range.
    static func accepted(_ answers: [String], offered settings: WebSocketCompression?) throws(SwitchyardError) -> Self? {
        let extensions = answers.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        guard let answer = extensions.first else { return nil }
        guard let settings, extensions.count == 1 else {
            throw refused("the server answered with extensions the client did not offer: \(answers.joined(separator: ", ")).")
        }
        var parts = answer.split(separator: ";").map { $0.trimmingSpaces() }
        guard parts.removeFirst().lowercased() == "permessage-deflate" else {
            throw refused("the server answered with an extension the client did not offer: \(answer).")
        }
        var agreement = Self(
            clientNoContextTakeover: settings.noContextTakeover, clientWindowBits: settings.windowBits,
            serverNoContextTakeover: false)
        var seen: Set<String> = []
        for part in parts {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
            guard let name = pair.first?.lowercased() else { throw refused("an empty parameter.") }
            let value = pair.count == 2 ? pair[1].filter { $0 != "\"" } : nil
            guard seen.insert(name).inserted else { throw refused("the parameter \(name) appears twice.") }
            switch (name, value) {
            case ("server_no_context_takeover", nil):
                agreement.serverNoContextTakeover = true
            case ("client_no_context_takeover", nil):
                agreement.clientNoContextTakeover = true
            case ("server_max_window_bits", let value?):
                guard let bits = Int(value), (8...15).contains(bits) else { throw refused("server_max_window_bits=\(value).") }
            case ("client_max_window_bits", let value?):
                guard let bits = Int(value), (8...15).contains(bits) else { throw refused("client_max_window_bits=\(value).") }
                agreement.clientWindowBits = min(agreement.clientWindowBits, bits)
            default:
                throw refused("the parameter \(part) is not one the client can accept.")
            }
        }
        return agreement
    }

    private static func refused(_ detail: String) -> SwitchyardError {
        SwitchyardError(.webSocketHandshake, "The server's permessage-deflate answer is not acceptable: " + detail)
    }
}
