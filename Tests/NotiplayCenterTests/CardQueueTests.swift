import NotiplayCenter
import Testing

struct CardQueueTests {
    @Test("The first arrival is shown; the others wait in order, and the status says how many")
    func arrivals() {
        var queue = CardQueue()
        #expect(queue.status == nil)
        let r1 = queue.arrive(identifier: "a", app: "A", thread: nil)
        #expect(r1 == .shown(index: 0))
        #expect(queue.status == nil)
        let r2 = queue.arrive(identifier: "b", app: "A", thread: nil)
        #expect(r2 == .queued(index: 1))
        let r3 = queue.arrive(identifier: "c", app: "B", thread: "t")
        #expect(r3 == .queued(index: 2))
        #expect(queue.shown?.shown == "a")
        #expect(queue.status == "2 more · n next · N previous")
    }

    @Test("A notification of the shown card's thread joins it; of another app or thread it waits")
    func threads() {
        var queue = CardQueue()
        _ = queue.arrive(identifier: "a", app: "A", thread: "t")
        let r4 = queue.arrive(identifier: "b", app: "A", thread: "t")
        #expect(r4 == .joinedShownCard)
        #expect(queue.shown?.identifiers == ["a", "b"])
        #expect(queue.shown?.shown == "b")
        let r5 = queue.arrive(identifier: "c", app: "B", thread: "t")
        #expect(r5 == .queued(index: 1))
        let r6 = queue.arrive(identifier: "d", app: "A", thread: "u")
        #expect(r6 == .queued(index: 2))
        let r7 = queue.arrive(identifier: "e", app: "A", thread: nil)
        #expect(r7 == .queued(index: 3))
    }

    @Test("Same identifier: replaced where it is, shown or waiting")
    func replacement() {
        var queue = CardQueue()
        _ = queue.arrive(identifier: "a", app: "A", thread: nil)
        _ = queue.arrive(identifier: "b", app: "A", thread: nil)
        let r8 = queue.arrive(identifier: "b", app: "A", thread: nil)
        #expect(r8 == .replaced(index: 1))
        let r9 = queue.arrive(identifier: "a", app: "A", thread: nil)
        #expect(r9 == .replaced(index: 0))
        #expect(queue.cards.count == 2)
    }

    @Test("n and N wrap around; dismissing shows the next, else the previous, else nothing")
    func navigation() {
        var queue = CardQueue()
        for id in ["a", "b", "c"] { _ = queue.arrive(identifier: id, app: "A", thread: nil) }
        let r10 = queue.showPrevious()
        #expect(r10?.shown == "c")
        let r11 = queue.showNext()
        #expect(r11?.shown == "a")
        let r12 = queue.showNext()
        #expect(r12?.shown == "b")
        let r13 = queue.dismissShown()
        #expect(r13?.shown == "c")
        let r14 = queue.dismissShown()
        #expect(r14?.shown == "a")
        let r15 = queue.showNext()
        #expect(r15 == nil)
        let r16 = queue.dismissShown()
        #expect(r16 == nil)
        #expect(queue.shownIndex == nil && queue.cards.isEmpty)
    }

    @Test("Removal: a card left empty goes; the shown card moves on only when it went")
    func removal() {
        var queue = CardQueue()
        for id in ["a", "b", "c"] { _ = queue.arrive(identifier: id, app: "A", thread: nil) }
        _ = queue.showNext()  // b shown
        let r17 = queue.remove(identifiers: ["a"])
        #expect(!r17)
        #expect(queue.shown?.shown == "b" && queue.shownIndex == 0)
        let r18 = queue.remove(identifiers: ["b"])
        #expect(r18)
        #expect(queue.shown?.shown == "c")
        let r19 = queue.remove(identifiers: ["c", "x"])
        #expect(r19)
        #expect(queue.shown == nil)
    }

    @Test("Showing a notification's card: the card that holds it, even inside a thread; nil for none")
    func showIdentifier() {
        var queue = CardQueue()
        _ = queue.arrive(identifier: "a", app: "A", thread: "t")
        _ = queue.arrive(identifier: "a2", app: "A", thread: "t")
        _ = queue.arrive(identifier: "b", app: "A", thread: nil)
        #expect(queue.shown?.shown == "a2")
        #expect(queue.show(identifier: "b")?.shown == "b")
        #expect(queue.shownIndex == 1)
        #expect(queue.show(identifier: "a")?.identifiers == ["a", "a2"])
        #expect(queue.shownIndex == 0)
        #expect(queue.show(identifier: "x") == nil)
        #expect(queue.shownIndex == 0)
    }
}
