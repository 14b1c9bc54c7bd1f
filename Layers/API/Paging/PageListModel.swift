public import Observation

/// A ``PageLoader``'s state for `@MainActor` UI code, as an observable snapshot.
///
/// Run ``observe()`` for as long as the screen is shown (a SwiftUI `.task` cancels it when the
/// view goes away) and render ``state``; ask the ``loader`` for pages.
///
/// ```swift
/// struct OrdersScreen: View {
///     @State var model = PageListModel(loader: PageLoader(source: orders, identity: \.id, rule: .flag))
///     var body: some View {
///         OrdersList(model.state, onReachEnd: { Task { await model.loader.loadNext() } })
///             .refreshable { await model.loader.refresh() }
///             .task { await model.loader.loadFirst() }
///             .task { await model.observe() }
///     }
/// }
/// ```
@MainActor @Observable
public final class PageListModel<Source: PageSource, ID: Hashable & Sendable> {
    /// The loader whose state this mirrors.
    public let loader: PageLoader<Source, ID>

    /// The loader's latest state, updated on the main actor while ``observe()`` runs.
    public private(set) var state: PageListState<Source.Item> = .notStarted

    /// Creates a model; ``state`` follows the loader once ``observe()`` runs.
    /// - Parameter loader: The loader to mirror.
    public init(loader: PageLoader<Source, ID>) {
        self.loader = loader
    }

    /// Copies every state of the loader into ``state`` until the calling task is cancelled.
    public func observe() async {
        for await state in await loader.states() {
            self.state = state
        }
    }
}
