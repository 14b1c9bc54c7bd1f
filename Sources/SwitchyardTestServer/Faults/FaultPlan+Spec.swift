extension FaultPlan {
    /// A fault specification that cannot be read, with what is wrong in ``description``.
    public struct SpecError: Error, CustomStringConvertible {
        /// What is wrong and what the syntax is.
        public let description: String
    }

    /// The names ``init(spec:seed:)`` accepts, for help texts.
    public static let specSyntax =
        "comma-separated NAME=RATE with rates from 0 to 1: reset (split evenly between reset-before and reset-mid), "
        + "reset-before, reset-mid, stall, truncate, malformed, burst; and burst-length=N (503s per burst, default 8)"

    /// Reads a plan written as on the command line, e.g.
    /// `reset=0.01,stall=0.005,truncate=0.01,malformed=0.005,burst=0.01`.
    ///
    /// Names: `reset` (split evenly between a reset before the response and one in the middle of
    /// the body), `reset-before`, `reset-mid`, `stall`, `truncate`, `malformed`, `burst`, each with a
    /// rate from 0 to 1, and `burst-length` with a count. Names not given stay 0; the rates may add up
    /// to at most 1.
    /// - Parameters:
    ///   - spec: The specification.
    ///   - seed: The seed of the decisions.
    /// - Throws: ``SpecError`` for an unknown name, a rate outside 0…1, or rates adding up to more than 1.
    public init(spec: String, seed: UInt64 = 1) throws(SpecError) {
        self.init(seed: seed)
        for item in spec.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " ") }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw SpecError(description: "'\(item)' is not NAME=VALUE; write \(Self.specSyntax).")
            }
            let name = parts[0]
            if name == "burst-length" {
                guard let count = Int(parts[1]), count > 0 else {
                    throw SpecError(description: "burst-length must be a whole number above 0, not '\(parts[1])'.")
                }
                burstLength = count
                continue
            }
            guard let rate = Double(parts[1]), rate >= 0, rate <= 1 else {
                throw SpecError(description: "The rate of \(name) must be a number from 0 to 1, not '\(parts[1])'.")
            }
            switch name {
            case "reset":
                resetBeforeResponse = rate / 2
                resetMidBody = rate / 2
            case "reset-before": resetBeforeResponse = rate
            case "reset-mid": resetMidBody = rate
            case "stall": stall = rate
            case "truncate": truncate = rate
            case "malformed": malformed = rate
            case "burst": burst = rate
            default:
                throw SpecError(description: "Unknown fault '\(name)'; write \(Self.specSyntax).")
            }
        }
        guard totalRate <= 1 else {
            throw SpecError(description: "The rates add up to \(totalRate), more than 1.")
        }
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text.removeFirst() }
        while text.last == set { text.removeLast() }
        return String(text)
    }
}
