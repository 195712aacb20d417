package import Notiplay

/// One deck, several drivers: a headless server's key lines and an attached viewer's screen
/// both follow the center's deck. The deck has one ``CardDeck/onDeckChange`` hook; each
/// driver gets a ``Member`` (the same deck, with a hook of its own), and the share tells every
/// member's hook when the deck changes. Nothing of the deck is kept here: every call goes to it.
@MainActor
package final class SharedDeck {
    private let deck: any CardDeck
    private var members: [WeakMember] = []

    /// Takes over `deck`'s hook (set nothing on it directly from now on).
    package init(_ deck: any CardDeck) {
        self.deck = deck
        deck.onDeckChange = { [weak self] in self?.changed() }
    }

    /// A view of the deck for one more driver; it counts as long as it is kept.
    package func member() -> Member {
        let member = Member(deck: deck)
        members.removeAll { $0.member == nil }
        members.append(WeakMember(member: member))
        return member
    }

    private func changed() {
        for member in members.compactMap(\.member) { member.onDeckChange?() }
    }

    private struct WeakMember {
        weak var member: Member?
    }

    /// The shared deck as one driver sees it.
    @MainActor
    package final class Member: CardDeck {
        private let deck: any CardDeck

        fileprivate init(deck: any CardDeck) {
            self.deck = deck
        }

        package var onDeckChange: (@MainActor () -> Void)?
        package var shownSession: (any CardSession)? { deck.shownSession }
        package var deckStatus: String? { deck.deckStatus }
        package func move(by step: Int) -> (any CardSession)? { deck.move(by: step) }
        package func shownCardDismissed() { deck.shownCardDismissed() }
        package func keyPressed() { deck.keyPressed() }
        package func dismissAll() { deck.dismissAll() }
        package func queuedCards(limit: Int) -> [QueuedCard] { deck.queuedCards(limit: limit) }
        package var shownIsCritical: Bool { deck.shownIsCritical }
        package var shownNotice: String? { deck.shownNotice }
        package var shownHint: String? { deck.shownHint }
    }
}
