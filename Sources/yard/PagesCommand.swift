import ArgumentParser
import HTTPTypes
import Switchyard
import SwitchyardAPI

/// `yard pages`: walks a paged JSON list with the page loader, through the full client chain,
/// printing one JSON line per load and a summary line.
struct PagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pages",
        abstract: "Walk a paged JSON list page by page with Switchyard's page loader.",
        discussion: """
            The page parameter (default page=1, 2, …) is added to the URL's query, which is kept. \
            There is a next page while the flag at --has-next-path is true; or, with --total-path, while \
            the items received so far (duplicates included) are fewer than the total; otherwise until a \
            page is shorter than --size (or empty). Items are de-duplicated by the value at --id-path.

            Each load prints {"page","state","items","new","duplicates","has_next","error"}; a failed page \
            is asked for again (it must be the same page) up to --retry-failed-page more times. The last \
            line is {"done":true,"state","unique","pages_loaded","loads"}.

            Exit status: 0 when the walk ended loaded or noData, 1 when it gave up on a failing page, \
            64 on bad command-line usage.
            """
    )

    @Argument(help: "The list's absolute http or https URL.")
    var url: String

    @Option(name: .customLong("items-path"), help: "JSON path of the array of items, e.g. data.items.")
    var itemsPath: String

    @Option(name: .customLong("id-path"), help: "JSON path of an item's identity inside the item, e.g. id.")
    var idPath: String

    @Option(name: .customLong("has-next-path"), help: "JSON path of the 'there is more' flag.")
    var hasNextPath: String?

    @Option(name: .customLong("total-path"), help: "JSON path of the list's total number of items.")
    var totalPath: String?

    @Option(name: .customLong("page-param"), help: "Query name of the page number.")
    var pageParam = "page"

    @Option(name: .customLong("first-page"), help: "Number of the first page.")
    var firstPage = 1

    @Option(name: .customLong("size-param"), help: "Query name of the page size (requires --size).")
    var sizeParam: String?

    @Option(help: "Items per page: sent with --size-param, and the length of a full page.")
    var size: Int?

    @Option(name: .customLong("retry-failed-page"), help: "Ask for a failed page again up to K more times.")
    var retryFailedPage = 2

    @Option(name: .customLong("max-pages"), help: "Stop after N pages have loaded.")
    var maxPages = 1_000

    @Option(help: "The transport: \(TransportChoice.names).")
    var transport: TransportChoice = .curl

    @Option(help: "Retry a failed attempt of a page request up to N times (in the client's chain).")
    var retries = 0

    @Option(name: .customShort("H"), help: "A header 'Name: value' for every page request; repeatable.")
    var headers: [String] = []

    func validate() throws {
        if hasNextPath != nil, totalPath != nil {
            throw ValidationError("Give either --has-next-path or --total-path, not both.")
        }
        if sizeParam != nil, size == nil { throw ValidationError("--size-param needs --size.") }
        if let size, size < 1 { throw ValidationError("--size must be at least 1.") }
        if retryFailedPage < 0 || retries < 0 {
            throw ValidationError("--retry-failed-page and --retries must not be negative.")
        }
        if maxPages < 1 { throw ValidationError("--max-pages must be at least 1.") }
        _ = try layout()
        do {
            _ = try Request(url: url)
            _ = try HeaderArguments.fields(headers)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        let layout = try layout()
        let fields = try HeaderArguments.fields(headers)
        let walk = try await transport.withTransport { transport in
            let client = try Client(
                transport: transport,
                configuration: ClientConfiguration(
                    retry: retries > 0 ? RetryPolicy(maxAttempts: retries + 1) : nil))
            let source = JSONPageSource(client: client, url: url, layout: layout, headerFields: fields)
            return await PageWalk(maxPages: maxPages, retryFailedPage: retryFailedPage)
                .run(PageLoader(source: source, firstPage: firstPage, pageSize: size))
        }
        if walk.gaveUp { throw ExitCode(1) }
    }

    /// The layout the options describe.
    /// - Throws: A `ValidationError` naming the option whose path does not parse.
    private func layout() throws -> JSONPageLayout {
        func path(_ text: String, _ option: String) throws -> JSONPath {
            do {
                return try JSONPath(parsing: text)
            } catch {
                throw ValidationError("\(option): \(error)")
            }
        }
        return JSONPageLayout(
            items: try path(itemsPath, "--items-path"), id: try path(idPath, "--id-path"),
            hasNext: try hasNextPath.map { try path($0, "--has-next-path") },
            total: try totalPath.map { try path($0, "--total-path") },
            pageParameter: .number(name: pageParam), sizeParameter: sizeParam)
    }
}
