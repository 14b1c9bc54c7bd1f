public import SwitchyardJSON

extension PageLoader where Source == JSONPageSource, ID == JSONValue {
    /// Creates a loader over a ``JSONPageSource``: items are identified by the layout's id path
    /// and the has-next rule is the one the layout implies (``JSONPageLayout/hasNextRule``).
    /// - Parameters:
    ///   - source: The JSON source.
    ///   - firstPage: The first page's index as the API counts pages.
    ///   - pageSize: The page size to ask for, `nil` to let the server decide.
    public init(source: JSONPageSource, firstPage: Int = 1, pageSize: Int? = nil) {
        let implied = source.layout.hasNextRule
        let rule: HasNextRule = implied == .shortPage() ? .shortPage(size: pageSize) : implied
        self.init(
            source: source, identity: { [source] item in source.identity(of: item) }, rule: rule,
            firstPage: firstPage, pageSize: pageSize)
    }
}
