import SwitchyardCore

extension TLSOptions {
    /// A TLS protocol version, for ``TLSOptions/minimumVersion``.
    public enum TLSVersion: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// TLS 1.2 (RFC 5246), the default minimum.
        case v1_2 = 12
        /// TLS 1.3 (RFC 8446).
        case v1_3 = 13

        /// `TLS 1.2` or `TLS 1.3`.
        public var description: String { self == .v1_2 ? "TLS 1.2" : "TLS 1.3" }

        /// Orders versions oldest first.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}
