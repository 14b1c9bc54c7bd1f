public import HTTPTypes

extension HTTPField.Name {
    /// Whether this is the same field name as `other` (case-insensitively, as `==`), telling names of
    /// different lengths apart without comparing their text.
    ///
    /// Canonical names are lower-case ASCII, so names of different lengths always differ; and most
    /// comparisons on a head's hot path are between different names (a response's fields looked
    /// through for `Content-Length`), which `==` decides only after a call and a string comparison.
    @inlinable package func matches(_ other: HTTPField.Name) -> Bool {
        canonicalName.utf8.count == other.canonicalName.utf8.count && canonicalName == other.canonicalName
    }
}

extension HTTPFields {
    /// Whether a field named `name` is present: a yes-or-no look-up that, unlike the `[name]`
    /// subscript, neither joins the values nor builds a string.
    @inlinable package func containsField(named name: HTTPField.Name) -> Bool {
        contains { $0.name.matches(name) }
    }
}
