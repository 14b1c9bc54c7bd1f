import SwitchyardCore

extension TLSOptions {
    /// Which certificate authorities a transport trusts to vouch for a server.
    public enum TrustRoots: Sendable, Hashable {
        /// The operating system's trust store (on Debian, `/etc/ssl/certs`).
        case system
        /// The system trust store plus the CA certificates in these PEM files.
        case systemAnd(certificateFiles: [String])
        /// Only the CA certificates in these PEM files; the system store is not consulted.
        case only(certificateFiles: [String])

        /// The PEM files named, in order (empty for ``system``).
        public var certificateFiles: [String] {
            switch self {
            case .system: []
            case .systemAnd(let files), .only(let files): files
            }
        }

        /// Whether the system trust store is consulted.
        public var includesSystem: Bool {
            if case .only = self { return false }
            return true
        }
    }
}
