/// Sets query parameters on a URL string, keeping the rest of its query and its fragment.
enum QueryEditing {
    /// `url` with each of `parameters` set: existing parameters of the same names are removed,
    /// the new ones appended (values percent-encoded), everything else kept as written.
    static func url(_ url: String, setting parameters: [(name: String, value: String)]) -> String {
        guard !parameters.isEmpty else { return url }
        var base = Substring(url)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        var kept: [Substring] = []
        if let mark = base.firstIndex(of: "?") {
            let names = Set(parameters.map(\.name))
            kept = base[base.index(after: mark)...].split(separator: "&").filter { pair in
                let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                return !names.contains(String(name))
            }
            base = base[..<mark]
        }
        let added = PercentEncoding.query(parameters.map { QueryItem($0.name, $0.value) })
        return base + "?" + (kept.map(String.init) + [added]).joined(separator: "&") + fragment
    }
}
