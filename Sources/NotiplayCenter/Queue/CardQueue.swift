/// The server's cards, in arrival order, and which one is shown: one card at a time, the others
/// waiting (`n` shows the next, `N` the previous).
///
/// A card holds the notifications of one thread of one app that arrived while it was shown (the
/// content extension's `didReceive` is called again for each, as on iOS); a notification whose
/// identifier is already on a card replaces it there. Pure value: the server applies what each
/// change returns to its sessions and its screen.
public struct CardQueue: Sendable, Equatable {
    /// One card: an app's thread, and the identifiers of its notifications, the newest last.
    public struct Card: Sendable, Equatable {
        /// The app the notifications belong to.
        public var app: String
        /// The thread (`thread-id`); `nil` puts the notification on a card of its own.
        public var thread: String?
        /// The notifications on the card, oldest first.
        public var identifiers: [String]

        /// The notification the card shows now: its newest.
        public var shown: String { identifiers[identifiers.count - 1] }
    }

    /// What an arrival did.
    public enum Arrival: Sendable, Equatable {
        /// Shown at once, on a new card at `index` (nothing was shown).
        case shown(index: Int)
        /// Added to the shown card, whose extension receives it (`didReceive` again).
        case joinedShownCard
        /// Replaced the notification with the same identifier on the card at `index`.
        case replaced(index: Int)
        /// Waiting on a new card at `index`.
        case queued(index: Int)
    }

    /// The cards, in arrival order.
    public private(set) var cards: [Card] = []
    /// The index of the shown card; `nil` when there is none.
    public private(set) var shownIndex: Int?

    /// An empty queue.
    public init() {}

    /// The shown card.
    public var shown: Card? { shownIndex.map { cards[$0] } }

    /// Adds notification `identifier` of `app`, in `thread`.
    public mutating func arrive(identifier: String, app: String, thread: String?) -> Arrival {
        if let index = cards.firstIndex(where: { $0.identifiers.contains(identifier) }) {
            cards[index].identifiers.removeAll { $0 == identifier }
            cards[index].identifiers.append(identifier)
            return .replaced(index: index)
        }
        if let index = shownIndex, let thread, cards[index].app == app, cards[index].thread == thread {
            cards[index].identifiers.append(identifier)
            return .joinedShownCard
        }
        cards.append(Card(app: app, thread: thread, identifiers: [identifier]))
        let index = cards.count - 1
        if shownIndex == nil {
            shownIndex = index
            return .shown(index: index)
        }
        return .queued(index: index)
    }

    /// Takes the shown card off (it was dismissed) and shows the one after it, else the one
    /// before; returns the newly shown card.
    @discardableResult
    public mutating func dismissShown() -> Card? {
        guard let index = shownIndex else { return nil }
        cards.remove(at: index)
        shownIndex = cards.isEmpty ? nil : min(index, cards.count - 1)
        return shown
    }

    /// Shows the next card (wrapping to the first); returns it, or `nil` when there is no other.
    public mutating func showNext() -> Card? {
        guard let index = shownIndex, cards.count > 1 else { return nil }
        shownIndex = (index + 1) % cards.count
        return shown
    }

    /// Shows the previous card (wrapping to the last); returns it, or `nil` when there is no other.
    public mutating func showPrevious() -> Card? {
        guard let index = shownIndex, cards.count > 1 else { return nil }
        shownIndex = (index + cards.count - 1) % cards.count
        return shown
    }

    /// Removes notifications; a card left with none goes. Returns whether the shown card changed
    /// (it went, or its shown notification did).
    public mutating func remove(identifiers: Set<String>) -> Bool {
        let before = shown
        var index = 0
        var shownAfter = shownIndex
        while index < cards.count {
            cards[index].identifiers.removeAll { identifiers.contains($0) }
            if cards[index].identifiers.isEmpty {
                cards.remove(at: index)
                if let shown = shownAfter {
                    if shown > index { shownAfter = shown - 1 } else if shown == index { shownAfter = min(index, cards.count - 1) }
                }
            } else {
                index += 1
            }
        }
        shownIndex = cards.isEmpty ? nil : shownAfter
        return before != shown
    }

    /// Shows the card that holds notification `identifier`; returns it, or `nil` when no card
    /// holds it.
    @discardableResult
    public mutating func show(identifier: String) -> Card? {
        guard let index = cards.firstIndex(where: { $0.identifiers.contains(identifier) }) else { return nil }
        shownIndex = index
        return cards[index]
    }

    /// The line under the card: how many others wait and the keys that reach them, or `nil`
    /// when the shown card is the only one ("2 more · n next · N previous").
    public var status: String? {
        guard shownIndex != nil, cards.count > 1 else { return nil }
        return "\(cards.count - 1) more · n next · N previous"
    }
}
