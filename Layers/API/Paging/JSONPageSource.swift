public import HTTPTypes
public import SwitchyardCore
public import SwitchyardJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A ``PageSource`` of untyped JSON: sends `GET url?page=N` through a `Client` and
/// reads the page at the paths of a ``JSONPageLayout``. Items are `JSONValue`s, identified by
/// the layout's ``JSONPageLayout/id`` path. `yard pages` walks lists with it.
///
/// ```swift
/// let source = JSONPageSource(client: client, url: "https://api.example.com/orders?status=open",
///                             layout: JSONPageLayout(items: "data.items", id: "id", total: "data.total",
///                                                    sizeParameter: "size"))
/// let loader = PageLoader(source: source, pageSize: 20)
/// ```
///
/// The page parameters are added to the URL's query, replacing any of the same name; the rest of
/// the query is kept. A 204 or an empty body is a page without items.
public struct JSONPageSource: PageSource {
    /// The items: any JSON values.
    public typealias Item = JSONValue

    /// The client that sends the page requests (its whole chain: retries, logging, events).
    public let client: Client
    /// The list's URL, without the page parameters.
    public let url: String
    /// Where the page's items and paging information are, and how pages are asked for.
    public let layout: JSONPageLayout
    /// Header fields added to every page request.
    public let headerFields: HTTPFields

    /// Creates a source.
    /// - Parameters:
    ///   - client: The client that sends the page requests.
    ///   - url: The list's absolute URL, without the page parameters.
    ///   - layout: Where the page's items and paging information are.
    ///   - headerFields: Header fields added to every page request.
    public init(client: Client, url: String, layout: JSONPageLayout, headerFields: HTTPFields = [:]) {
        self.client = client
        self.url = url
        self.layout = layout
        self.headerFields = headerFields
    }

    /// An item's identity: the value at the layout's ``JSONPageLayout/id`` path (every item of a
    /// page has one, or the page fails to decode).
    /// - Parameter item: An item of a page.
    /// - Returns: Its identity.
    public func identity(of item: JSONValue) -> JSONValue {
        item[path: layout.id] ?? item
    }

    /// Loads one page.
    /// - Parameter request: Which page.
    /// - Returns: The page: items, and the flag, total, cursor and size the layout points at.
    /// - Throws: `SwitchyardError.Kind.httpStatus` for a status outside 200–299;
    ///   `SwitchyardError.Kind.decoding` for a body that is not JSON, an items path that
    ///   leads nowhere or not to an array, an item without the id path, or a paging field of the
    ///   wrong type (each message names the path); what the client throws.
    public func loadPage(_ request: PageRequest) async throws(SwitchyardError) -> Page<JSONValue> {
        var outgoing = try Request(url: pageURL(for: request))
        outgoing.head.headerFields.append(contentsOf: headerFields)
        let response = try await client.send(outgoing)
        let status = response.head.status
        guard status.kind == .successful else {
            throw .httpStatus(
                "Page \(request.index) failed: the server answered \(status.code) \(status.reasonPhrase).",
                response: response.head)
        }
        if status.code == 204 || response.body.isEmpty { return .empty }
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
        } catch {
            throw .decoding("Page \(request.index) is not JSON: \(error)", underlyingError: error)
        }
        return try JSONPageReader(layout: layout, index: request.index).page(from: document)
    }

    /// The URL for a page: ``url`` with the layout's page (and size) parameters in its query.
    /// - Parameter request: Which page.
    /// - Returns: The URL to send.
    public func pageURL(for request: PageRequest) -> String {
        var parameters: [(name: String, value: String)] = []
        switch layout.pageParameter {
        case .number(let name): parameters.append((name, String(request.index)))
        case .offset(let name): parameters.append((name, String(request.offset)))
        case .cursor(let name): if let cursor = request.cursor { parameters.append((name, cursor)) }
        }
        if let name = layout.sizeParameter, let size = request.size { parameters.append((name, String(size))) }
        return QueryEditing.url(url, setting: parameters)
    }
}
