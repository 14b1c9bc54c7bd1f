import Testing

@testable import Switchyard
@testable import SwitchyardPopUps

/// `PopUpCoalescer` on an injected clock: within a window, repeats of a message are counted, not shown.
@Suite struct PopUpCoalescerTests {
    private static let start = ContinuousClock.now
    private static func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
    private static let offline = PopUp(message: "You are offline.")

    @Test func theFirstPopUpIsShownUnchanged() {
        let coalescer = PopUpCoalescer(window: .seconds(2))
        #expect(coalescer.coalesce(Self.offline, now: Self.at(0)) == Self.offline)
    }

    @Test func repeatsWithinTheWindowAreCountedAndNotShown() {
        let coalescer = PopUpCoalescer(window: .seconds(2))
        _ = coalescer.coalesce(Self.offline, now: Self.at(0))
        let second = coalescer.coalesce(Self.offline, now: Self.at(500))
        let third = coalescer.coalesce(Self.offline, now: Self.at(1_999))
        #expect(second == PopUp(message: "You are offline.", isWorthShowing: false, coalescedCount: 2))
        #expect(third == PopUp(message: "You are offline.", isWorthShowing: false, coalescedCount: 3))
    }

    @Test func theWindowRunsFromTheFirstPopUpOfABurstNotTheLatest() {
        let coalescer = PopUpCoalescer(window: .seconds(2))
        _ = coalescer.coalesce(Self.offline, now: Self.at(0))
        _ = coalescer.coalesce(Self.offline, now: Self.at(1_500))
        let afterWindow = coalescer.coalesce(Self.offline, now: Self.at(2_000))
        #expect(afterWindow == Self.offline, "a repeat at exactly the window's end starts a new burst")
        let repeatOfNewBurst = coalescer.coalesce(Self.offline, now: Self.at(3_000))
        #expect(repeatOfNewBurst.isWorthShowing == false)
        #expect(repeatOfNewBurst.coalescedCount == 2)
    }

    @Test func differentMessagesAreCoalescedSeparately() {
        let coalescer = PopUpCoalescer(window: .seconds(2))
        let busy = PopUp(message: "The service is busy.")
        #expect(coalescer.coalesce(Self.offline, now: Self.at(0)).isWorthShowing)
        #expect(coalescer.coalesce(busy, now: Self.at(10)).isWorthShowing)
        #expect(coalescer.coalesce(Self.offline, now: Self.at(20)).coalescedCount == 2)
        #expect(coalescer.coalesce(busy, now: Self.at(30)).coalescedCount == 2)
    }

    @Test func aPopUpNotWorthShowingPassesThroughAndStartsNoBurst() {
        let coalescer = PopUpCoalescer(window: .seconds(2))
        let quiet = PopUp(message: "You are offline.", isWorthShowing: false)
        #expect(coalescer.coalesce(quiet, now: Self.at(0)) == quiet)
        #expect(coalescer.coalesce(Self.offline, now: Self.at(10)) == Self.offline)
    }

    @Test func aZeroWindowNeverCoalesces() {
        let coalescer = PopUpCoalescer(window: .zero)
        for milliseconds in 0..<5 {
            #expect(coalescer.coalesce(Self.offline, now: Self.at(milliseconds)) == Self.offline)
        }
    }

    @Test func manyDistinctMessagesDoNotEndALiveBurst() {
        let coalescer = PopUpCoalescer(window: .seconds(10))
        _ = coalescer.coalesce(Self.offline, now: Self.at(0))
        for index in 0..<300 {
            #expect(coalescer.coalesce(PopUp(message: "error \(index)"), now: Self.at(1 + index)).isWorthShowing)
        }
        let repeated = coalescer.coalesce(Self.offline, now: Self.at(400))
        #expect(repeated.isWorthShowing == false, "the burst is still within its window")
        #expect(repeated.coalescedCount == 2)
    }
}
