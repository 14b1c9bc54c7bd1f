public import Foundation

/// The Public Suffix List (publicsuffix.org): the domains under which anyone may register names
/// (`com`, `co.uk`, `github.io`), so a cookie set for one of them would reach every site below it.
///
/// A jar refuses such "super-cookies" (RFC 6265bis §5.7). Read the system's copy with
/// ``system()`` (Debian's `publicsuffix` package installs it; `make test` does), or any copy in the
/// list's file format with ``init(contentsOf:)``.
public struct PublicSuffixList: Sendable {
    /// Where Debian, Ubuntu and Fedora keep the list.
    public static let systemPaths = ["/usr/share/publicsuffix/public_suffix_list.dat", "/usr/share/publicsuffix/effective_tld_names.dat"]

    private let rules: Set<String>
    /// Rules `*.x`, stored as `x`.
    private let wildcards: Set<String>
    /// Rules `!x`, stored as `x`.
    private let exceptions: Set<String>

    /// The number of rules read.
    public var count: Int { rules.count + wildcards.count + exceptions.count }

    /// A list of no rules: every domain's public suffix is its last label (`example.com` → `com`),
    /// which refuses cookies for top-level domains only.
    public static let topLevelOnly = PublicSuffixList(text: "")

    /// The system's list, or `nil` when no file is at ``systemPaths``.
    /// - Returns: The list.
    public static func system() -> PublicSuffixList? {
        for path in systemPaths {
            if let list = try? PublicSuffixList(contentsOf: URL(fileURLWithPath: path)) { return list }
        }
        return nil
    }

    /// Reads a list file (UTF-8, one rule per line, `//` comments).
    /// - Parameter url: The file.
    /// - Throws: The file's read error.
    public init(contentsOf url: URL) throws {
        self.init(text: try String(contentsOf: url, encoding: .utf8))
    }

    /// Reads rules from the text of a list file.
    /// - Parameter text: The file's text.
    public init(text: String) {
        var rules = Set<String>()
        var wildcards = Set<String>()
        var exceptions = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) {
            // A rule is the line's first word; comments start with //.
            guard let word = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first, !word.hasPrefix("//") else {
                continue
            }
            let rule = word.lowercased()
            if rule.hasPrefix("*.") {
                wildcards.insert(String(rule.dropFirst(2)))
            } else if rule.hasPrefix("!") {
                exceptions.insert(String(rule.dropFirst()))
            } else {
                rules.insert(rule)
            }
        }
        self.rules = rules
        self.wildcards = wildcards
        self.exceptions = exceptions
    }

    /// The public suffix of `domain` (lower-case, no trailing dot): the longest matching rule, an
    /// exception rule's parent, or the last label when no rule matches.
    /// - Parameter domain: A host name.
    /// - Returns: Its public suffix.
    public func publicSuffix(of domain: String) -> String {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        for start in labels.indices {
            let candidate = labels[start...].joined(separator: ".")
            if exceptions.contains(candidate) { return labels[(start + 1)...].joined(separator: ".") }
            if rules.contains(candidate) { return candidate }
            if start + 1 < labels.endIndex, wildcards.contains(labels[(start + 1)...].joined(separator: ".")) {
                return candidate
            }
        }
        return labels.last.map(String.init) ?? domain
    }

    /// Whether `domain` is itself a public suffix.
    /// - Parameter domain: A host name, lower-case.
    /// - Returns: `true` for `com`, `co.uk`, `github.io`; `false` for `example.co.uk`.
    public func isPublicSuffix(_ domain: String) -> Bool {
        publicSuffix(of: domain) == domain
    }
}
