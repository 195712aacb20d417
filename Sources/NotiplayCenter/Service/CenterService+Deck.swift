#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import NotiplayCore
import NotiplayPlayback
package import Notiplay

/// The deck a card driver shows: one card at a time, as ``CenterDeck`` decides, each presented
/// in a session of its own.
extension CenterService {
    /// The line under the card, or what shows while there is none.
    package var deckStatus: String? {
        let skipped = deck.unpresentable.count
        guard deck.shown != nil else {
            let held = skipped == 0 ? "" : " · \(skipped) for apps not served here (list shows them)"
            return "notiplay serve · no notifications\(held) · q quits"
        }
        guard skipped > 0 else { return deck.status }
        return [deck.status, "\(skipped) not served here"].compactMap { $0 }.joined(separator: " · ")
    }

    /// The first `limit` cards waiting after the shown one, in the order `n` reaches them: each
    /// one's app, title and when it arrived (the terminal asks at every frame, for as many as
    /// its pane shows).
    package func waitingCards(limit: Int) -> [WaitingCard] {
        deck.waiting.prefix(max(0, limit)).map { card in
            let notification = live[card.shown]?.notification
            let sender = live[card.shown]?.traits.sender
            let content = notification?.request.content
            let title = [content?.title, content?.body].compactMap { $0 }.first { !$0.isEmpty } ?? card.shown
            return WaitingCard(
                identifier: card.shown, app: sender ?? card.app, title: title, critical: card.critical,
                arrived: notification?.date ?? time.now)
        }
    }

    /// The warnings about the shown card's notifications (a sound that cannot play), as one dim
    /// line; `nil` when there are none.
    package var shownNotice: String? {
        let notes = (deck.shown?.identifiers ?? []).flatMap { live[$0]?.notes ?? [] }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// What Enter does on the shown card, when its notification has a default action: "enter
    /// Open".
    package var shownHint: String? {
        guard let shown = deck.shown?.shown, let label = live[shown]?.traits.defaultAction else { return nil }
        return "enter " + label
    }

    /// Whether the shown card is critical (drawn so that it stands out).
    package var shownIsCritical: Bool { deck.shown?.critical ?? false }

    /// Shows the next (1) or previous (-1) card.
    package func move(by step: Int) -> (any CardSession)? {
        keyPressed()
        let moved = step >= 0 ? deck.showNext() : deck.showPrevious()
        if moved != nil {
            showCurrent()
            deck.keyPressed(at: policyClock())
        }
        return shownSession
    }

    /// A key was pressed on the shown card: arrivals wait for a few seconds rather than take
    /// the screen from under it.
    package func keyPressed() {
        deck.keyPressed(at: policyClock())
    }

    /// The shown card was dismissed (by a key, an action that dismisses, the extension itself or
    /// a script): recorded, and the next card shows. Nothing happens while the shown session is
    /// not dismissed, so a driver may call this at once after a key as well as the center when
    /// it sees the session's `dismissed` event.
    package func shownCardDismissed() {
        guard let session = shownSession, session.isDismissed else { return }
        let ended = deck.shown?.identifiers ?? []
        for identifier in ended {
            _ = try? store.markDismissed(identifier)
        }
        deck.dismissShown()
        self.ended(ended)
        showCurrent()
        try? pruneHistory()
    }

    /// Every card this server presents was dismissed at once (the `X` key): recorded, each one
    /// answered as dismissed.
    package func dismissAll() {
        closeShownSession()
        let gone = deck.dismissAll()
        for identifier in gone {
            _ = try? store.markDismissed(identifier)
            emit(.response(CenterResponse(identifier: identifier, action: UNNotificationDismissActionIdentifier)))
        }
        ended(gone)
        showCurrent()
        try? pruneHistory()
    }

    /// Deletes what ``retention`` no longer keeps.
    func pruneHistory() throws(CenterStoreError) {
        guard let retention else { return }
        try store.prune(keepingHistory: retention.count, olderThan: retention.age)
    }

    /// Presents the deck's shown card in a new session (closing the old one), and starts its
    /// media when the card waited for it.
    func showCurrent() {
        if shownSession != nil { arrivalSounds?.mediaPlayingChanged(false) }
        closeShownSession()
        _ = deck.mediaChanged(playing: false, ended: false)
        let stopping = Task { [engine] in _ = try? await engine.stop() }
        guard let card = deck.shown, let app = apps[card.app] else {
            emit(.shown(identifier: nil))
            onDeckChange?()
            return
        }
        let log = EventLog(clock: clock)
        var definition = app.definition
        // The buttons a notification brought along (a desktop notification's actions), under its
        // own category: the same card after a restart as when it arrived.
        for identifier in card.identifiers {
            guard let category = live[identifier]?.traits.category else { continue }
            definition.categories = definition.categories.filter { $0.identifier != category.identifier } + [category]
        }
        let session = makeSession(for: card, app: app, definition: definition, log: log)
        log.observe { [weak self, weak session] logged in
            guard let self, let session, session === self.shownSession else { return }
            self.observe(logged, card: card)
            guard case .dismissed = logged.event else { return }
            // However the card was dismissed, the next one shows; not from inside the log's
            // call, as that closes this session.
            Task { @MainActor [weak self, weak session] in
                guard let self, let session, session === self.shownSession else { return }
                self.shownCardDismissed()
            }
        }
        // The new card's media waits for the stop: a play pressed at once is never undone by it.
        session.mediaWaits(for: stopping)
        shownSession = session
        for identifier in card.identifiers {
            guard let notification = live[identifier]?.notification else { continue }
            do { try session.present(notification) } catch { emit(.presentation(log.record(.error(error.description)))) }
        }
        emit(.shown(identifier: card.shown))
        onDeckChange?()
        startMediaIfWaiting()
    }

    /// Presses the shown card's media button when its card waited to start its media.
    func startMediaIfWaiting() {
        guard deck.takeMediaStart(), let session = shownSession, !session.isPlaying else { return }
        session.handle(.media)
        // Busy from the press on, not only once the engine says it started: an arrival in
        // between waits rather than cutting the media off before it is heard.
        if session.isPlaying { _ = deck.mediaChanged(playing: true, ended: false) }
    }

    private func observe(_ logged: LoggedEvent, card: CenterDeck.Card) {
        emit(.presentation(logged))
        followMedia(logged.event)
        let action: String
        var text: String?
        switch logged.event {
        case .action(let chosen, let typed, _):
            emit(.action(CenterResponse(identifier: card.shown, action: chosen, text: typed)))
            return
        case .forwarded(let forwarded, let typed, _):
            action = forwarded
            text = typed
        case .dismissed:
            action = UNNotificationDismissActionIdentifier
        default:
            return
        }
        var json = "{\"identifier\":"
        JSONWriter.appendString(card.shown, to: &json)
        json += ",\"event\":" + logged.json + "}"
        _ = try? store.recordResponse(card.shown, json: json)
        emit(.response(CenterResponse(identifier: card.shown, action: action, text: text)))
    }

    /// The shown card's media started, paused or ended: a held-back sound plays once it stops,
    /// and a card that waited for the media to end shows and starts its own.
    func followMedia(_ event: PresentationEvent) {
        guard case .playback(let state, _, _) = event else { return }
        arrivalSounds?.mediaPlayingChanged(state == .started)
        let ended = state == .ended || state == .error
        let moved = deck.mediaChanged(playing: state == .started, ended: ended)
        // Not from inside the session's log: the old session closes.
        Task { @MainActor [weak self] in
            if moved { self?.showCurrent() }
            // A card held on screen by its media may expire now.
            if state != .started { self?.expireDue() }
        }
    }
}

/// A card waiting behind the shown one, as the line under the card lists it.
package struct WaitingCard: Sendable, Equatable {
    /// The notification it shows.
    package var identifier: String
    /// Its app.
    package var app: String
    /// Its title (else its body, else its identifier).
    package var title: String
    /// It is critical.
    package var critical: Bool
    /// When it arrived.
    package var arrived: Date
}
