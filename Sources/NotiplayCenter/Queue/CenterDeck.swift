/// The center's cards and the policy that decides which one a person sees: one card at a time,
/// the others waiting in the order they will show.
///
/// The policy, newest on top as iOS banners and dunst's stack:
/// - An arrival takes the screen, unless the shown card is *busy* (its media plays, or a key was
///   pressed in the last ``Policy/keyGrace``); then it waits, as the next card.
/// - A critical arrival goes ahead of every non-critical card: it takes the screen from a
///   non-critical card even when that one is busy, and waits only behind a busy critical one.
/// - An arrival a configuration rule sends ahead (`skip-queue`) is placed as a critical one is
///   (ahead of every other card, taking the screen even from a busy one), without a critical
///   card's look.
/// - A card whose media should start by itself (a desktop notification's `sound-file`) and had
///   to wait shows, and starts, when the media ahead of it ends, or when the card ahead of it
///   goes: no key needed, so three in a row are heard one after another, in the order they came.
///   Media a critical arrival cut off plays again in its turn.
/// - A card the server cannot present (its app is not registered here) never blocks: it stays
///   listed behind the others and is never shown, so a server that can present it shows it.
///
/// A card holds the notifications of one thread of one app that arrived while it was shown (the
/// content extension's `didReceive` is called again for each, as on iOS); a notification whose
/// identifier is already on a card replaces it there.
///
/// Pure value on a caller's clock (`now` is any monotonic duration): the server applies what each
/// change returns to its sessions and its screen, and tests drive it on a virtual clock.
public struct CenterDeck: Sendable, Equatable {
    /// The policy's settings.
    public struct Policy: Sendable, Equatable {
        /// How long after a key on the shown card an arrival waits instead of taking the screen.
        public var keyGrace: Duration

        /// A policy with a key grace of 5 s unless told otherwise.
        public init(keyGrace: Duration = .seconds(5)) {
            self.keyGrace = keyGrace
        }
    }

    /// What arrives: a notification and what the policy needs to know of it.
    public struct Arrival: Sendable, Equatable {
        /// The notification's identifier.
        public var identifier: String
        /// Its app.
        public var app: String
        /// Its thread (`thread-id`); `nil` puts it on a card of its own.
        public var thread: String?
        /// Its interruption level is critical.
        public var critical: Bool
        /// The server can present it (its app is registered here).
        public var presentable: Bool
        /// Its card's media starts by itself when the card shows.
        public var startsMedia: Bool
        /// A configuration rule sends it ahead of the waiting cards (`skip-queue`).
        public var skipsQueue: Bool

        /// An arrival; by default not critical, presentable, with no media of its own starting,
        /// not sent ahead.
        public init(
            identifier: String, app: String, thread: String? = nil, critical: Bool = false, presentable: Bool = true,
            startsMedia: Bool = false, skipsQueue: Bool = false
        ) {
            self.skipsQueue = skipsQueue
            self.identifier = identifier
            self.app = app
            self.thread = thread
            self.critical = critical
            self.presentable = presentable
            self.startsMedia = startsMedia
        }
    }

    /// One card: an app's thread, and the identifiers of its notifications, the newest last.
    public struct Card: Sendable, Equatable {
        /// The app the notifications belong to.
        public var app: String
        /// The thread; `nil`: a card of its own.
        public var thread: String?
        /// The notifications on the card, oldest first.
        public var identifiers: [String]
        /// One of its notifications is critical.
        public var critical: Bool
        /// The server can present it.
        public var presentable: Bool
        /// Its media starts when it shows next (it waited for other media to end).
        public var startsMedia: Bool
        /// When its newest notification arrived, in arrival order (larger is newer).
        public var order: Int
        /// One of its notifications was sent ahead by a configuration rule.
        public var skipsQueue = false

        /// It is placed as a critical card is: critical, or sent ahead by a rule.
        public var goesAhead: Bool { critical || skipsQueue }

        /// The notification the card shows now: its newest.
        public var shown: String { identifiers[identifiers.count - 1] }
    }

    /// What an arrival did.
    public enum Outcome: Sendable, Equatable {
        /// It took the screen on a card of its own.
        case shown
        /// It joined the shown card (same app and thread), whose extension receives it.
        case joinedShownCard
        /// It replaced the notification with its identifier, on the shown card (`true`) or a
        /// waiting one.
        case replaced(shownCard: Bool)
        /// It waits, `position` cards after the shown one (1: next).
        case waiting(position: Int)
        /// Its app is not registered here: listed, never shown.
        case unpresentable
    }

    /// The policy in force.
    public var policy: Policy
    /// The cards, in the order they show: the shown one, then those after it (`n`), wrapping.
    public private(set) var cards: [Card] = []
    /// The index of the shown card; `nil` when none shows.
    public private(set) var shownIndex: Int?
    /// The shown card's media plays.
    public private(set) var mediaPlaying = false
    /// When a key was last pressed on the shown card.
    public private(set) var lastKey: Duration?
    private var arrivals = 0

    /// An empty deck under `policy`.
    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// The shown card.
    public var shown: Card? { shownIndex.map { cards[$0] } }

    /// The cards waiting to show, in the order `n` reaches them (cards that cannot be presented
    /// here are left out).
    public var waiting: [Card] {
        guard let shownIndex else { return cards.filter(\.presentable) }
        let after = cards[(shownIndex + 1)...] + cards[..<shownIndex]
        return after.filter(\.presentable)
    }

    /// The cards this server cannot present.
    public var unpresentable: [Card] { cards.filter { !$0.presentable } }

    /// Whether the shown card holds the screen against a non-critical arrival at `now`: its media
    /// plays, or a key was pressed on it within ``Policy/keyGrace``.
    public func isBusy(at now: Duration) -> Bool {
        guard shownIndex != nil else { return false }
        if mediaPlaying { return true }
        guard let lastKey else { return false }
        return now - lastKey < policy.keyGrace
    }

    /// Adds a notification as the policy says, at `now`.
    public mutating func arrive(_ arrival: Arrival, at now: Duration) -> Outcome {
        arrivals += 1
        if let index = cards.firstIndex(where: { $0.identifiers.contains(arrival.identifier) }) {
            cards[index].identifiers.removeAll { $0 == arrival.identifier }
            cards[index].identifiers.append(arrival.identifier)
            cards[index].critical = cards[index].critical || arrival.critical
            cards[index].skipsQueue = cards[index].skipsQueue || arrival.skipsQueue
            cards[index].startsMedia = cards[index].startsMedia || arrival.startsMedia
            cards[index].order = arrivals
            return .replaced(shownCard: index == shownIndex)
        }
        guard arrival.presentable else {
            cards.append(card(for: arrival))
            return .unpresentable
        }
        if let index = shownIndex, let thread = arrival.thread, cards[index].app == arrival.app, cards[index].thread == thread {
            cards[index].identifiers.append(arrival.identifier)
            cards[index].critical = cards[index].critical || arrival.critical
            cards[index].skipsQueue = cards[index].skipsQueue || arrival.skipsQueue
            cards[index].startsMedia = cards[index].startsMedia || arrival.startsMedia
            cards[index].order = arrivals
            return .joinedShownCard
        }
        let new = card(for: arrival)
        guard let index = shownIndex else {
            let at = new.goesAhead ? 0 : cards.prefix { $0.goesAhead && $0.presentable }.count
            cards.insert(new, at: at)
            shownIndex = at
            lastKey = nil
            return .shown
        }
        let current = cards[index]
        let busy = isBusy(at: now)
        let takes = new.goesAhead ? (!current.goesAhead || !busy) : (!current.goesAhead && !busy)
        if takes {
            // Media cut off by a critical arrival plays again, in its turn, once it is over.
            if mediaPlaying { cards[index].startsMedia = true }
            let at = new.goesAhead ? 0 : cards.prefix { $0.goesAhead && $0.presentable }.count
            cards.insert(new, at: at)
            shownIndex = at
            lastKey = nil
            mediaPlaying = false
            return .shown
        }
        // Next: after the shown card and the cards that came after it and wait already, and a
        // non-critical card after every critical one.
        var at = index + 1
        while at < cards.count, cards[at].presentable,
            (cards[at].goesAhead && !new.goesAhead) || (cards[at].order > current.order && (cards[at].goesAhead || !new.goesAhead))
        {
            at += 1
        }
        cards.insert(new, at: at)
        return .waiting(position: at - index)
    }

    private func card(for arrival: Arrival) -> Card {
        Card(
            app: arrival.app, thread: arrival.thread, identifiers: [arrival.identifier], critical: arrival.critical,
            presentable: arrival.presentable, startsMedia: arrival.startsMedia, order: arrivals, skipsQueue: arrival.skipsQueue)
    }

    /// A key was pressed on the shown card at `now`.
    public mutating func keyPressed(at now: Duration) {
        guard shownIndex != nil else { return }
        lastKey = now
    }

    /// The shown card's media started (`true`) or stopped; `ended` says it ended rather than
    /// paused. When media ends and a card waits whose media starts by itself, that card shows
    /// (the oldest such); returns whether the shown card changed.
    public mutating func mediaChanged(playing: Bool, ended: Bool) -> Bool {
        mediaPlaying = playing
        guard !playing, ended, let next = oldestWaitingForMedia() else { return false }
        shownIndex = next
        lastKey = nil
        return true
    }

    /// Whether the shown card's media should start now (it waited for it, or arrived with it):
    /// `true` once, then the card's wish is spent.
    public mutating func takeMediaStart() -> Bool {
        guard let index = shownIndex, cards[index].startsMedia else { return false }
        cards[index].startsMedia = false
        return true
    }

    /// Takes the shown card off (it was dismissed) and shows the next one; returns it.
    @discardableResult
    public mutating func dismissShown() -> Card? {
        guard let index = shownIndex else { return nil }
        cards.remove(at: index)
        shownIndex = nil
        showPresentable(from: index)
        return shown
    }

    /// Takes every card this server presents off (a person dismissed them all); returns their
    /// notifications' identifiers.
    public mutating func dismissAll() -> [String] {
        let gone = cards.filter(\.presentable).flatMap(\.identifiers)
        cards.removeAll(where: \.presentable)
        shownIndex = nil
        lastKey = nil
        mediaPlaying = false
        return gone
    }

    /// Shows the next card (wrapping to the first); returns it, or `nil` when there is no other.
    public mutating func showNext() -> Card? { step(1) }

    /// Shows the previous card (wrapping to the last); returns it, or `nil` when there is no other.
    public mutating func showPrevious() -> Card? { step(-1) }

    private mutating func step(_ direction: Int) -> Card? {
        guard let index = shownIndex else { return nil }
        var next = index
        for _ in 0..<cards.count {
            next = (next + direction + cards.count) % cards.count
            if next == index { return nil }
            if cards[next].presentable {
                shownIndex = next
                mediaPlaying = false
                return shown
            }
        }
        return nil
    }

    /// Removes notifications; a card left with none goes. Returns whether the shown card changed
    /// (it went, or its shown notification did).
    public mutating func remove(identifiers: Set<String>) -> Bool {
        let before = shown
        var kept: [Card] = []
        var goneBeforeShown = 0
        var shownCardGone = false
        for (index, card) in cards.enumerated() {
            var card = card
            card.identifiers.removeAll { identifiers.contains($0) }
            if card.identifiers.isEmpty {
                if let shownIndex, index < shownIndex { goneBeforeShown += 1 }
                if index == shownIndex { shownCardGone = true }
                continue
            }
            kept.append(card)
        }
        cards = kept
        if let index = shownIndex {
            if shownCardGone {
                shownIndex = nil
                showPresentable(from: index - goneBeforeShown)
            } else {
                shownIndex = index - goneBeforeShown
            }
        }
        if before?.shown != shown?.shown { mediaPlaying = false }
        return before != shown
    }

    /// Shows the card that holds notification `identifier`; returns it, or `nil` when no card
    /// this server presents holds it.
    @discardableResult
    public mutating func show(identifier: String) -> Card? {
        guard let index = cards.firstIndex(where: { $0.identifiers.contains(identifier) }), cards[index].presentable else {
            return nil
        }
        if index != shownIndex { mediaPlaying = false }
        shownIndex = index
        return cards[index]
    }

    /// The oldest card, other than the shown one, whose media waits to start.
    private func oldestWaitingForMedia() -> Int? {
        cards.indices.filter { $0 != shownIndex && cards[$0].presentable && cards[$0].startsMedia }
            .min { cards[$0].order < cards[$1].order }
    }

    /// The shown card went: the oldest card whose media waits shows (its sound is heard now
    /// rather than stranded), else the first card this server presents at `index` or after it,
    /// else before it.
    private mutating func showPresentable(from index: Int) {
        let order = Array(cards.indices[min(index, cards.count)...]) + cards.indices[..<min(index, cards.count)].reversed()
        shownIndex = oldestWaitingForMedia() ?? order.first { cards[$0].presentable }
        lastKey = nil
        mediaPlaying = false
    }

    /// The line under the card: how many others wait and the keys that reach them, or `nil`
    /// when the shown card is the only one ("2 more · n next · N previous").
    public var status: String? {
        let others = waiting.count
        guard shownIndex != nil, others > 0 else { return nil }
        return "\(others) more · n next · N previous · X dismiss all"
    }
}
