import NotiplayCenter
import Testing

/// The presentation policy, on a virtual clock: `now` is whatever the test says.
struct CenterDeckTests {
    private func arrival(
        _ identifier: String, app: String = "A", thread: String? = nil, critical: Bool = false, presentable: Bool = true,
        media: Bool = false
    ) -> CenterDeck.Arrival {
        CenterDeck.Arrival(
            identifier: identifier, app: app, thread: thread, critical: critical, presentable: presentable, startsMedia: media)
    }

    private func starts(_ deck: inout CenterDeck) -> Bool { deck.takeMediaStart() }

    private func changed(_ deck: inout CenterDeck, playing: Bool, ended: Bool) -> Bool {
        deck.mediaChanged(playing: playing, ended: ended)
    }

    private func order(_ deck: CenterDeck) -> [String] {
        [deck.shown?.shown].compactMap { $0 } + deck.waiting.map(\.shown)
    }

    @Test("Newest on top: an arrival takes the screen from an idle card, and the one it covered is next")
    func newestOnTop() {
        var deck = CenterDeck()
        #expect(deck.arrive(arrival("a"), at: .seconds(0)) == .shown)
        #expect(deck.arrive(arrival("b"), at: .seconds(1)) == .shown)
        #expect(deck.arrive(arrival("c"), at: .seconds(2)) == .shown)
        #expect(order(deck) == ["c", "b", "a"])
        #expect(deck.status == "2 more · n next · N previous · X dismiss all")
        deck.dismissShown()
        #expect(order(deck) == ["b", "a"])
    }

    @Test("Media playing holds the screen: arrivals wait as next, in the order they came")
    func mediaHoldsTheScreen() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("memo"), at: .seconds(0))
        _ = deck.mediaChanged(playing: true, ended: false)
        #expect(deck.isBusy(at: .seconds(100)))
        #expect(deck.arrive(arrival("b"), at: .seconds(1)) == .waiting(position: 1))
        #expect(deck.arrive(arrival("c"), at: .seconds(2)) == .waiting(position: 2))
        #expect(order(deck) == ["memo", "b", "c"])
        // Paused: no longer busy, the next arrival takes the screen.
        #expect(deck.mediaChanged(playing: false, ended: false) == false)
        #expect(deck.arrive(arrival("d"), at: .seconds(3)) == .shown)
        #expect(order(deck) == ["d", "memo", "b", "c"])
    }

    @Test("A key on the card holds the screen for the key grace, not a moment longer")
    func keyGrace() {
        var deck = CenterDeck(policy: .init(keyGrace: .seconds(5)))
        _ = deck.arrive(arrival("a"), at: .seconds(0))
        deck.keyPressed(at: .seconds(10))
        #expect(deck.isBusy(at: .milliseconds(14_999)))
        #expect(deck.arrive(arrival("b"), at: .milliseconds(14_999)) == .waiting(position: 1))
        #expect(!deck.isBusy(at: .seconds(15)))
        #expect(deck.arrive(arrival("c"), at: .seconds(15)) == .shown)
        #expect(order(deck) == ["c", "a", "b"])
    }

    @Test("Critical goes ahead of every non-critical card, busy or not; it waits only behind a busy critical one")
    func critical() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("memo"), at: .seconds(0))
        _ = deck.mediaChanged(playing: true, ended: false)
        _ = deck.arrive(arrival("n1"), at: .seconds(1))
        _ = deck.arrive(arrival("n2"), at: .seconds(2))
        #expect(deck.arrive(arrival("alarm", critical: true), at: .seconds(3)) == .shown)
        #expect(order(deck) == ["alarm", "memo", "n1", "n2"])
        // A normal arrival does not cover an idle critical card: it waits.
        #expect(deck.arrive(arrival("n3"), at: .seconds(4)) == .waiting(position: 1))
        // A second critical one covers an idle critical card ...
        #expect(deck.arrive(arrival("fire", critical: true), at: .seconds(5)) == .shown)
        #expect(order(deck) == ["fire", "alarm", "n3", "memo", "n1", "n2"])
        // ... but waits behind a busy one, ahead of the non-critical cards.
        deck.keyPressed(at: .seconds(6))
        #expect(deck.arrive(arrival("flood", critical: true), at: .seconds(7)) == .waiting(position: 1))
        #expect(deck.arrive(arrival("n4"), at: .seconds(8)) == .waiting(position: 3))
        #expect(order(deck) == ["fire", "flood", "alarm", "n4", "n3", "memo", "n1", "n2"])
    }

    @Test("A card a rule sends ahead (skip-queue) is placed as a critical one, without being critical")
    func skipQueue() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("memo"), at: .seconds(0))
        _ = deck.mediaChanged(playing: true, ended: false)
        _ = deck.arrive(arrival("n1"), at: .seconds(1))
        var ahead = arrival("meeting")
        ahead.skipsQueue = true
        #expect(deck.arrive(ahead, at: .seconds(2)) == .shown)
        #expect(order(deck) == ["meeting", "memo", "n1"])
        #expect(deck.shown?.critical == false && deck.shown?.goesAhead == true)
        // An idle card sent ahead is not covered by a normal arrival, as a critical one is not.
        #expect(deck.arrive(arrival("n2"), at: .seconds(3)) == .waiting(position: 1))
        // Behind a busy critical card, it waits first in line.
        #expect(deck.arrive(arrival("fire", critical: true), at: .seconds(4)) == .shown)
        deck.keyPressed(at: .seconds(5))
        var next = arrival("standup")
        next.skipsQueue = true
        #expect(deck.arrive(next, at: .seconds(6)) == .waiting(position: 1))
        #expect(order(deck) == ["fire", "standup", "meeting", "n2", "memo", "n1"])
    }

    @Test("A waiting card whose media starts by itself shows when the media ahead ends; three play in order")
    func soundsInTurn() {
        var deck = CenterDeck()
        #expect(deck.arrive(arrival("s1", media: true), at: .seconds(0)) == .shown)
        #expect(starts(&deck))
        #expect(!starts(&deck))
        _ = deck.mediaChanged(playing: true, ended: false)
        _ = deck.arrive(arrival("s2", media: true), at: .seconds(1))
        _ = deck.arrive(arrival("s3", media: true), at: .seconds(1))
        _ = deck.arrive(arrival("quiet"), at: .seconds(1))
        // A pause is not an end: nothing moves.
        #expect(!changed(&deck, playing: false, ended: false))
        #expect(deck.shown?.shown == "s1")
        _ = deck.mediaChanged(playing: true, ended: false)
        #expect(changed(&deck, playing: false, ended: true))
        #expect(deck.shown?.shown == "s2")
        #expect(starts(&deck))
        _ = deck.mediaChanged(playing: true, ended: false)
        #expect(changed(&deck, playing: false, ended: true))
        #expect(deck.shown?.shown == "s3")
        #expect(starts(&deck))
        _ = deck.mediaChanged(playing: true, ended: false)
        #expect(!changed(&deck, playing: false, ended: true))
        #expect(deck.shown?.shown == "s3")
    }

    @Test("Media cut off by a critical arrival plays again after it, then a sound that waited; dismissal never strands a sound")
    func criticalCutsMedia() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("memo", media: true), at: .zero)
        #expect(starts(&deck))
        _ = deck.mediaChanged(playing: true, ended: false)
        _ = deck.arrive(arrival("chime", media: true), at: .seconds(1))
        #expect(deck.arrive(arrival("fire", critical: true), at: .seconds(2)) == .shown)
        // Fire has no media: dismissing it shows the oldest card whose media waits, and starts it.
        #expect(deck.dismissShown()?.shown == "memo")
        #expect(starts(&deck))
        _ = deck.mediaChanged(playing: true, ended: false)
        #expect(changed(&deck, playing: false, ended: true))
        #expect(deck.shown?.shown == "chime")
        #expect(starts(&deck))
        // Dismissed while a sound waits behind it: the sound's card shows, not the next by position.
        _ = deck.mediaChanged(playing: true, ended: false)
        _ = deck.arrive(arrival("later", media: true), at: .seconds(3))
        _ = deck.arrive(arrival("quiet"), at: .seconds(3))
        #expect(deck.dismissShown()?.shown == "later")
        #expect(starts(&deck))
    }

    @Test("A card of an app the server does not present never shows and never blocks")
    func unpresentable() {
        var deck = CenterDeck()
        #expect(deck.arrive(arrival("d1", app: "desktop", presentable: false), at: .zero) == .unpresentable)
        #expect(deck.arrive(arrival("d2", app: "desktop", presentable: false), at: .zero) == .unpresentable)
        #expect(deck.shown == nil)
        #expect(deck.status == nil)
        #expect(deck.arrive(arrival("mine"), at: .seconds(1)) == .shown)
        #expect(deck.shown?.shown == "mine")
        #expect(deck.waiting.isEmpty)
        #expect(deck.unpresentable.map(\.shown) == ["d1", "d2"])
        #expect(deck.showNext() == nil)
        #expect(deck.dismissShown() == nil)
        #expect(deck.shown == nil)
        #expect(deck.cards.count == 2)
    }

    @Test("A notification of the shown card's thread joins it; of another app or thread it is a card of its own")
    func threads() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("a", thread: "t"), at: .zero)
        #expect(deck.arrive(arrival("b", thread: "t"), at: .zero) == .joinedShownCard)
        #expect(deck.shown?.identifiers == ["a", "b"])
        deck.keyPressed(at: .zero)
        #expect(deck.arrive(arrival("c", app: "B", thread: "t"), at: .zero) == .waiting(position: 1))
        #expect(deck.arrive(arrival("d", thread: "u"), at: .zero) == .waiting(position: 2))
        #expect(deck.arrive(arrival("e"), at: .zero) == .waiting(position: 3))
    }

    @Test("Same identifier: replaced where it is, shown or waiting")
    func replacement() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("a"), at: .zero)
        deck.keyPressed(at: .zero)
        _ = deck.arrive(arrival("b"), at: .zero)
        #expect(deck.arrive(arrival("b"), at: .zero) == .replaced(shownCard: false))
        #expect(deck.arrive(arrival("a"), at: .zero) == .replaced(shownCard: true))
        #expect(deck.cards.count == 2)
    }

    @Test("n and N wrap around and skip cards that cannot be presented; dismissing shows the next, else the previous")
    func navigation() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("a"), at: .zero)
        deck.keyPressed(at: .zero)
        _ = deck.arrive(arrival("x", presentable: false), at: .zero)
        _ = deck.arrive(arrival("b"), at: .zero)
        _ = deck.arrive(arrival("c"), at: .zero)
        #expect(order(deck) == ["a", "b", "c"])
        #expect(deck.showNext()?.shown == "b")
        #expect(deck.showNext()?.shown == "c")
        #expect(deck.showNext()?.shown == "a")
        #expect(deck.showPrevious()?.shown == "c")
        // c was last of those shown here: the one before it shows.
        #expect(deck.dismissShown()?.shown == "b")
        #expect(deck.dismissShown()?.shown == "a")
        #expect(deck.dismissShown() == nil)
        #expect(deck.cards.map(\.shown) == ["x"])
    }

    @Test("Removal: a card left empty goes; the shown card moves on only when it went")
    func removal() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("a", thread: "t"), at: .zero)
        _ = deck.arrive(arrival("a2", thread: "t"), at: .zero)
        deck.keyPressed(at: .zero)
        _ = deck.arrive(arrival("b"), at: .zero)
        _ = deck.arrive(arrival("c"), at: .zero)
        #expect(deck.remove(identifiers: ["b"]) == false)
        #expect(order(deck) == ["a2", "c"])
        #expect(deck.remove(identifiers: ["a2"]) == true)
        #expect(deck.shown?.identifiers == ["a"])
        #expect(deck.remove(identifiers: ["a"]) == true)
        #expect(deck.shown?.shown == "c")
        #expect(deck.remove(identifiers: ["c"]) == true)
        #expect(deck.shown == nil)
    }

    @Test("Dismiss all takes every presentable card and leaves the others listed")
    func dismissAll() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("a"), at: .zero)
        _ = deck.arrive(arrival("x", presentable: false), at: .zero)
        _ = deck.arrive(arrival("b", thread: "t"), at: .zero)
        _ = deck.arrive(arrival("b2", thread: "t"), at: .zero)
        #expect(Set(deck.dismissAll()) == ["a", "b", "b2"])
        #expect(deck.shown == nil)
        #expect(deck.cards.map(\.shown) == ["x"])
    }

    @Test("Showing a notification's card: the card that holds it, even inside a thread; nil for none")
    func showIdentifier() {
        var deck = CenterDeck()
        _ = deck.arrive(arrival("a", thread: "t"), at: .zero)
        _ = deck.arrive(arrival("a2", thread: "t"), at: .zero)
        deck.keyPressed(at: .zero)
        _ = deck.arrive(arrival("b"), at: .zero)
        _ = deck.arrive(arrival("x", presentable: false), at: .zero)
        #expect(deck.show(identifier: "b")?.shown == "b")
        #expect(deck.show(identifier: "a")?.shown == "a2")
        #expect(deck.show(identifier: "x") == nil)
        #expect(deck.show(identifier: "nope") == nil)
    }
}
