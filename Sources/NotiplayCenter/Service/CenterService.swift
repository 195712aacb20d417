import NotiplayCore
package import Notiplay
package import NotiplayPlayback

/// The running center: what arrives is stored, queued and shown one card at a time, with its
/// app's content extension; what people do to a card goes back into the store.
///
/// One presentation session exists at a time, for the shown card: moving to another card closes
/// it, stops its media and presents the other card anew (its extension's `didReceive` again), so
/// that only one session listens to the engine.
@MainActor
package final class CenterService {
    /// An app the server presents for: its definition and its extensions.
    package struct App: Sendable {
        /// The app's definition (name, categories, actions).
        package var definition: AppDefinition
        /// The content and service extensions it ships.
        package var registry: ExtensionRegistry
        /// Where its named arrival sounds are (a `Sounds` folder beside its app file), if anywhere.
        package var soundsFolder: String?

        /// An app from its definition and registry.
        package init(definition: AppDefinition, registry: ExtensionRegistry, soundsFolder: String? = nil) {
            self.definition = definition
            self.registry = registry
            self.soundsFolder = soundsFolder
        }
    }

    /// What happened in the center, for `serve --headless` and tests (presentation events come
    /// through ``onPresentationEvent``).
    package enum Event: Sendable, Equatable {
        /// A notification was stored and queued (or replaced one).
        case arrived(identifier: String, app: String, queued: Int)
        /// Notifications were removed by a client.
        case removed(identifiers: [String])
        /// The card shown now (`nil`: none).
        case shown(identifier: String?)
        /// A scheduled request fired (`late`: its date passed while the server was down).
        case fired(identifier: String, late: Bool)
        /// Focus was turned on or off.
        case focus(Bool)
        /// What happened to an arrival sound.
        case sound(SoundEvent)
    }

    /// The durable store.
    package let store: CenterStore
    /// The clock of every card's events (one for the server's life, so their times compare).
    package let clock: EventClock
    /// The center's time, which scheduled requests fire on (the store's too).
    package let time: CenterTime
    /// The pending requests and when each fires.
    var schedule = PendingSchedule()
    /// The wake-up for the next scheduled request, on the system's time.
    var timer: Task<Void, Never>?
    /// The player of arrival sounds, on an engine of its own; `nil`: no arrival sounds.
    package var arrivalSounds: ArrivalSoundPlayer? {
        didSet { arrivalSounds?.onEvent = { [weak self] event in self?.onEvent?(.sound(event)) } }
    }
    /// Apps refused the right to send notifications (`serve --deny`).
    package var deniedApps: Set<String> = []
    var apps: [String: App]
    let types: ExtensionTypes
    private let engine: any PlaybackEngine
    private let configuration: PresentationSession.Configuration
    var queue = CardQueue()
    /// The shown card's session.
    package private(set) var shownSession: PresentationSession?

    /// How much of the history to keep: ended notifications beyond the newest `count`, or that
    /// ended longer than `age` ago, are deleted when the server starts and whenever one ends.
    /// `nil` (the default) keeps everything.
    package var retention: (count: Int, age: Duration?)?

    /// Notifications whose card starts its media when it shows (see ``playOnArrival(_:)``).
    var autoPlay: Set<String> = []

    /// Tells whether a notification is kept in the history once it ends (`nil`: all are);
    /// one that is not is deleted from the store when it is dismissed or removed.
    package var keepsInHistory: (@MainActor (String) -> Bool)?

    /// The service-extension stages running, by the notification's sequence number.
    var serviceStages: [Int64: Task<Void, Never>] = [:]

    /// Limits of the service-extension stage an arrival goes through, and where fetched media go.
    package var serviceConfiguration = ServiceExtensionStage.Configuration()

    /// Called when the shown card or the queue's status changed.
    package var onDeckChange: (@MainActor () -> Void)?
    /// Called for every center event.
    package var onEvent: (@MainActor (Event) -> Void)?
    /// Called for every event of the shown card's session.
    package var onPresentationEvent: (@MainActor (LoggedEvent) -> Void)?
    /// Called when an action is chosen on a card (a button, the default action, a sent text),
    /// whatever its extension then does with it (for the desktop bridge).
    package var onAction: (@MainActor (CenterResponse) -> Void)?
    /// Called when a notification's card was dismissed or answered (for `send --wait`).
    package var onResponse: (@MainActor (CenterResponse) -> Void)?

    /// A center over `store`, presenting for `apps` (by name) with extension `types`, playing
    /// through `engine`; its cards' events are timed by `clock`.
    package init(
        store: CenterStore, apps: [App], types: ExtensionTypes, engine: any PlaybackEngine,
        configuration: PresentationSession.Configuration = .init(), clock: EventClock = EventClock(),
        time: CenterTime = .system
    ) {
        self.store = store
        self.clock = clock
        self.time = time
        self.apps = Dictionary(apps.map { ($0.definition.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.types = types
        self.engine = engine
        self.configuration = configuration
    }

    /// The names of the apps it presents for.
    package var appNames: [String] { apps.keys.sorted() }

    /// Queues what the store holds as delivered (after a restart), oldest first, and shows the first.
    package func restore() throws(CenterStoreError) {
        try pruneHistory()
        for stored in try store.delivered() {
            _ = queue.arrive(identifier: stored.identifier, app: stored.app, thread: stored.threadIdentifier)
        }
        showCurrent()
        restoreSchedule()
    }

    /// Stores `incoming` durably, then queues it: shown at once when nothing is, added to the
    /// shown card when it is of its thread, else waiting. A notification a service extension
    /// applies to is queued once the extension has finished (see ``serviceConfiguration``).
    /// Throws before anything is stored when the app is unknown.
    package func receive(_ incoming: IncomingNotification) throws(CenterServiceError) -> StoredNotification {
        guard let name = appName(matching: incoming.app) else {
            throw .unknownApp(incoming.app, known: appNames)
        }
        guard !isDenied(name) else { throw .notAllowed(name) }
        var incoming = incoming
        incoming.app = name
        var trigger: (any UNNotificationTrigger)?
        if let text = incoming.trigger {
            do {
                let decoded = try TriggerJSON.decode(text)
                incoming.nextDate = try firstDate(of: decoded)
                incoming.delivery = .pending
                trigger = decoded
            } catch let refusal as ScheduleRefusal {
                throw .schedule(refusal)
            } catch {
                throw .schedule(.invalidTrigger("\(error)"))
            }
        }
        let stored: StoredNotification
        do { stored = try store.add(incoming) } catch { throw .store(error) }
        if let trigger {
            scheduled(stored, trigger: trigger)
        } else {
            // Delivered now, it replaces a pending request with its identifier.
            unscheduled([stored.identifier])
            arrived(stored)
        }
        return stored
    }

    /// A notification delivered now (sent, or its trigger fired): through its app's service
    /// extension when one applies, then queued.
    func arrived(_ stored: StoredNotification) {
        guard let app = apps[stored.app] else { return }
        if let (notification, mutable) = serviceStageInput(stored, app: app) {
            runServiceStage(stored, notification: notification, mutable: mutable, app: app)
        } else {
            admit(stored)
        }
    }

    /// Queues a stored notification and shows what the queue says.
    func admit(_ stored: StoredNotification) {
        let arrival = queue.arrive(identifier: stored.identifier, app: stored.app, thread: stored.threadIdentifier)
        onEvent?(.arrived(identifier: stored.identifier, app: stored.app, queued: queue.cards.count - 1))
        playArrivalSound(stored)
        if autoPlay.contains(stored.identifier), startsMediaOnArrival(stored.identifier) { return }
        switch arrival {
        case .shown:
            showCurrent()
        case .joinedShownCard:
            if let session = shownSession, let notification = notification(stored) {
                try? session.present(notification)
            }
            onDeckChange?()
        case .replaced(let index):
            if index == queue.shownIndex { showCurrent() } else { onDeckChange?() }
        case .queued:
            onDeckChange?()
        }
    }

    /// Removes notifications (all live ones when `identifiers` is `nil`); a removed shown card
    /// closes and the next shows.
    package func remove(
        identifiers: [String]?, states: Set<StoredNotification.State> = [.pending, .delivered]
    ) throws(CenterStoreError) -> [StoredNotification] {
        let removed: [StoredNotification]
        if let identifiers {
            removed = try store.remove(identifiers: identifiers, states: states)
        } else {
            removed = try store.removeAll(states: states)
        }
        // What was never delivered was pending: off the schedule.
        unscheduled(removed.filter { $0.deliveredAt == nil }.map(\.identifier))
        let ids = Set(removed.filter { $0.deliveredAt != nil }.map(\.identifier))
        autoPlay.subtract(removed.map(\.identifier))
        if queue.remove(identifiers: ids) { showCurrent() } else { onDeckChange?() }
        onEvent?(.removed(identifiers: removed.map(\.identifier)))
        forgetTransient(removed.map(\.identifier))
        try? pruneHistory()
        return removed
    }

    /// Closes the shown session and stops its media.
    package func close() async {
        timer?.cancel()
        await arrivalSounds?.close()
        shownSession?.close()
        shownSession = nil
        try? await engine.stop()
    }

    // MARK: The deck

    /// The line under the card, or what shows while there is none.
    package var deckStatus: String? {
        guard queue.shown != nil else { return "notiplay serve · no notifications · q quits" }
        return queue.status
    }

    /// Shows the next (1) or previous (-1) card.
    package func move(by step: Int) -> PresentationSession? {
        let moved = step >= 0 ? queue.showNext() : queue.showPrevious()
        if moved != nil { showCurrent() }
        return shownSession
    }

    /// The shown card was dismissed: recorded, and the next card shows.
    package func shownCardDismissed() {
        if let card = queue.shown {
            for identifier in card.identifiers {
                _ = try? store.markDismissed(identifier)
            }
        }
        let ended = queue.shown?.identifiers ?? []
        queue.dismissShown()
        forgetTransient(ended)
        showCurrent()
        try? pruneHistory()
    }

    /// Deletes what ``retention`` no longer keeps.
    private func pruneHistory() throws(CenterStoreError) {
        guard let retention else { return }
        try store.prune(keepingHistory: retention.count, olderThan: retention.age)
    }

    /// Presents the queue's shown card in a new session (closing the old one).
    func showCurrent() {
        if shownSession != nil { arrivalSounds?.mediaPlayingChanged(false) }
        shownSession?.close()
        shownSession = nil
        let stopping = Task { [engine] in _ = try? await engine.stop() }
        guard let card = queue.shown, let app = apps[card.app] else {
            onEvent?(.shown(identifier: nil))
            onDeckChange?()
            return
        }
        let log = EventLog(clock: clock)
        let session = PresentationSession(
            app: app.definition, registry: app.registry, types: types, engine: engine, log: log, configuration: configuration)
        log.observe { [weak self, weak session] logged in
            guard let self, let session, session === self.shownSession else { return }
            self.observe(logged, card: card)
        }
        // The new card's media waits for the stop: a play pressed at once is never undone by it.
        session.mediaWaits(for: stopping)
        shownSession = session
        for identifier in card.identifiers {
            guard let stored = try? store.notification(identifier), let notification = notification(stored) else { continue }
            do { try session.present(notification) } catch { onPresentationEvent?(log.record(.error(error.description))) }
        }
        onEvent?(.shown(identifier: card.shown))
        onDeckChange?()
        if let waiting = card.identifiers.last(where: autoPlay.contains) {
            autoPlay.remove(waiting)
            if !session.isPlaying { session.handle(.media) }
        }
    }

    private func observe(_ logged: LoggedEvent, card: CardQueue.Card) {
        onPresentationEvent?(logged)
        followMedia(logged.event)
        let action: String
        var text: String?
        switch logged.event {
        case .action(let chosen, let typed, _):
            onAction?(CenterResponse(identifier: card.shown, action: chosen, text: typed))
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
        onResponse?(CenterResponse(identifier: card.shown, action: action, text: text))
    }

    /// The stored notification as the runtime presents it: its payload decoded, its stored
    /// attachment files attached.
    func notification(_ stored: StoredNotification) -> UNNotification? {
        guard let payload = try? PayloadDecoder(sizeLimit: nil).decode(Array(stored.payload.utf8)) else { return nil }
        let content = UNMutableNotificationContent(payload.content)
        let validator = AttachmentValidator()
        for attachment in stored.attachments {
            if let valid = try? validator.validate(store.attachmentPath(for: attachment), identifier: attachment.name) {
                content.attachments.append(valid)
            }
        }
        let request = UNNotificationRequest(
            identifier: stored.identifier, content: content, trigger: UNPushNotificationTrigger())
        return UNNotification(request: request, date: stored.deliveredAt ?? stored.arrivedAt)
    }
}

/// What a person did with a notification's card: the action forwarded to the app, or its dismissal.
package struct CenterResponse: Sendable, Equatable {
    /// The notification.
    package var identifier: String
    /// The action's identifier (`UNNotificationDismissActionIdentifier` for a dismissal).
    package var action: String
    /// What was typed into a text-input action.
    package var text: String?
}

/// Why the center refused a notification.
package enum CenterServiceError: Error, Sendable, CustomStringConvertible {
    /// The notification names an app the server does not present for.
    case unknownApp(String, known: [String])
    /// The store could not keep it.
    case store(CenterStoreError)
    /// Its trigger is refused, or never fires.
    case schedule(CenterService.ScheduleRefusal)
    /// Its app may not send notifications (`serve --deny`; Apple: `UNError.notificationsNotAllowed`).
    case notAllowed(String)

    package var description: String {
        switch self {
        case .unknownApp(let name, let known):
            "no app named \"\(name)\" is registered with the server (registered: \(known.joined(separator: ", ")))"
        case .store(let error): error.description
        case .schedule(let refusal): refusal.description
        case .notAllowed(let app): "notifications are not allowed for \"\(app)\" (the server was started with --deny \(app))"
        }
    }
}
