extension SwitchyardError {
    /// A finer cause inside a ``SwitchyardError/Kind``, set where a transport can tell it.
    ///
    /// Like `Kind`, it is an open set of named values: match the ones you handle and keep a
    /// `default:`. The transport kit's failure mapping sets it, so it is the same whichever
    /// transport met the fault.
    ///
    /// ```swift
    /// if error.reason == .hostNotResolved { suggestCheckingTheAddress() }
    /// ```
    public struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The reason's stable name, e.g. `hostNotResolved` or `tls.untrusted`.
        public let rawValue: String

        /// Creates a reason with this stable name; two reasons with the same name are equal.
        /// - Parameter rawValue: The name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The reason's stable name.
        public var description: String { rawValue }

        /// ``SwitchyardError/Kind/connectionFailed``: the host name did not resolve.
        public static let hostNotResolved = Self(rawValue: "hostNotResolved")
        /// ``SwitchyardError/Kind/connectionFailed``: no connection could be made (refused, unreachable).
        public static let couldNotConnect = Self(rawValue: "couldNotConnect")
        /// ``SwitchyardError/Kind/protocolViolation``: the body ended before all of it arrived.
        public static let bodyTruncated = Self(rawValue: "bodyTruncated")

    }
}
