import Foundation
import Switchyard
import Synchronization

/// Prints retry and redirect events as they happen, and keeps the pop-ups for the burst section.
final class DemoEventPrinter: Sendable {
    private let printing = Atomic<Bool>(false)
    /// Every pop-up published so far (cleared by the tour when it needs a fresh count).
    let popUps = Lock<[PopUp]>([])

    init(bus: EventBus) {
        bus.addObserver { event in self.handle(event) }
    }

    /// Whether retry and redirect events are printed.
    var isPrinting: Bool {
        get { printing.load(ordering: .relaxed) }
        set { printing.store(newValue, ordering: .relaxed) }
    }

    private func handle(_ event: ExchangeEvent) {
        if let popUp = event.popUp { popUps.withLock { $0.append(popUp) } }
        guard isPrinting else { return }
        if event.plugin(Retrying.self) != nil || event.plugin(Redirected.self) != nil {
            print("   ↻ \(event.kind.name): \(event.kind.detail)")
        }
    }
}
