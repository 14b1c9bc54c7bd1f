/// The experiments and feature flags a user is in, as the app's remote configuration says.
///
/// ```swift
/// let assignment = ExperimentAssignment(variants: ["checkout-v2": "treatment"], flags: ["dark-mode"])
/// assignment.experimentsHeaderValue   // "checkout-v2=treatment"
/// ```
public struct ExperimentAssignment: Sendable, Hashable {
    /// Experiment name → the variant this user sees.
    public var variants: [String: String]
    /// Feature flags switched on for this user.
    public var flags: Set<String>

    /// Creates an assignment.
    /// - Parameters:
    ///   - variants: Experiment name → variant.
    ///   - flags: The flags switched on.
    public init(variants: [String: String] = [:], flags: Set<String> = []) {
        self.variants = variants
        self.flags = flags
    }

    /// `name=variant` pairs sorted by name and joined by `; `, for the `X-Experiments` header.
    public var experimentsHeaderValue: String {
        variants.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    /// Flags sorted and joined by `,`, for the `X-Feature-Flags` header.
    public var flagsHeaderValue: String {
        flags.sorted().joined(separator: ",")
    }
}
