package import NotiplayCore
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

    /// What happened in the center, in order, for every observer (``observe(_:)``): the
    /// server's event lines, the desktop bridge's signals, `send --wait`'s answers, tests.
    package enum Event: Sendable, Equatable {
        /// A notification was stored and queued (or replaced one).
        case arrived(identifier: String, app: String, queued: Int)
        /// A notification of an app this server does not present was stored and listed; it
        /// shows under a server that presents its app.
        case skipped(identifier: String, app: String)
        /// Notifications left the center: removed by a client, or expired.
        case removed(identifiers: [String], reason: RemovalReason)
        /// The card shown now (`nil`: none).
        case shown(identifier: String?)
        /// A scheduled request fired (`late`: its date passed while the server was down).
        case fired(identifier: String, late: Bool)
        /// Focus was turned on or off.
        case focus(Bool)
        /// What happened to an arrival sound.
        case sound(SoundEvent)
        /// A doubt about a notification that did not stop it (a desktop notification's hint that
        /// was ignored, a sound that cannot play): `key` names what it is about.
        case warning(identifier: String, key: String?, message: String)
        /// An event of the shown card's session (or of a service extension's stage).
        case presentation(LoggedEvent)
        /// An action was chosen on a card (a button, the default action, a sent text), whatever
        /// its extension then does with it.
        case action(CenterResponse)
        /// A notification's card was dismissed or answered.
        case response(CenterResponse)
        /// The configuration was reloaded, or kept because the new one is not valid.
        case configuration(ConfigurationChange)
    }

    /// Why notifications left the center.
    package enum RemovalReason: Sendable, Equatable {
        /// A client removed them (`remove`, `CloseNotification`).
        case removed
        /// Their time on screen ran out.
        case expired
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
        didSet {
            arrivalSounds?.onEvent = { [weak self] event in
                guard let self else { return }
                if case .warning(let identifier, let message) = event { self.noteOnCard(identifier, message) }
                self.emit(.sound(event))
            }
        }
    }
    /// The configuration in force: its rules decide the traits of what arrives from now on
    /// (``remember``), its `volume` is the arrival sounds' default.
    package var config = CenterConfig()
    /// Reads the configuration again, for ``reloadConfiguration()``; `nil`: there is none to reload.
    package var configLoader: (@MainActor () throws(CenterConfigError) -> CenterConfig)?
    /// Apps refused the right to send notifications (`serve --deny`).
    package var deniedApps: Set<String> = []
    var apps: [String: App]
    let types: ExtensionTypes
    let engine: any PlaybackEngine
    let configuration: PresentationSession.Configuration
    /// The cards and the presentation policy.
    var deck: CenterDeck
    /// The shown card's session.
    package internal(set) var shownSession: (any CardSession)?
    /// How to start a presenter process for a card whose content extension is an author's;
    /// `nil`: every card is presented in this process (a crash in an extension ends it).
    package var presenterLaunch: PresenterLaunch?
    /// A presenter started ahead of the next card that needs one.
    var sparePresenter: PresenterProcess?
    /// The start of the next spare, a while after a card took the last one.
    var spareStart: Task<Void, Never>?
    /// Set once the server stops: no presenter is started from then on.
    var presentersStopped = false
    /// Closed cards' presenters that have not ended yet (a crash after its card was closed is
    /// still told).
    var closingPresenters: [ObjectIdentifier: PresenterSession] = [:]
    /// The live notifications, decoded once when they arrive (or are restored), by identifier.
    var live: [String: LiveNotification] = [:]
    /// Warnings told before their notification was stored (a desktop notification's mapping).
    var pendingNotes: [String: [String]] = [:]
    /// The monotonic clock the presentation policy runs on.
    let policyClock: @MainActor @Sendable () -> Duration
    /// The wake-up for the next expiry.
    var expiryTimer: Task<Void, Never>?

    /// How much of the history to keep: ended notifications beyond the newest `count`, or that
    /// ended longer than `age` ago, are deleted when the server starts and whenever one ends.
    /// `nil` (the default) keeps everything.
    package var retention: (count: Int, age: Duration?)?

    /// What each notification's card needs beyond its payload (its own buttons, its expiry,
    /// whether its media starts by itself): asked once per arrival and restore.
    var traitSources: [any NotificationTraitSource] = []

    /// The service-extension stages running, by the notification's sequence number.
    var serviceStages: [Int64: Task<Void, Never>] = [:]

    /// Limits of the service-extension stage an arrival goes through, and where fetched media go.
    package var serviceConfiguration = ServiceExtensionStage.Configuration()

    /// Called when the shown card or the queue's status changed (the card driver's).
    package var onDeckChange: (@MainActor () -> Void)?
    /// Everyone who observes the center's events, in the order they asked.
    var observers: [(token: UInt64, handler: @MainActor (Event) -> Void)] = []
    var observerTokens: UInt64 = 0

    /// A center over `store`, presenting for `apps` (by name) with extension `types`, playing
    /// through `engine`; its cards' events are timed by `clock`.
    package init(
        store: CenterStore, apps: [App], types: ExtensionTypes, engine: any PlaybackEngine,
        configuration: PresentationSession.Configuration = .init(), clock: EventClock = EventClock(),
        time: CenterTime = .system, policy: CenterDeck.Policy = .init(),
        policyClock: (@MainActor @Sendable () -> Duration)? = nil
    ) {
        self.store = store
        self.clock = clock
        self.time = time
        self.apps = Dictionary(apps.map { ($0.definition.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.types = types
        self.engine = engine
        var configuration = configuration
        // A card's age is counted on the center's time (a script's virtual clock, say).
        configuration.now = { time.now }
        self.configuration = configuration
        deck = CenterDeck(policy: policy)
        let start = ContinuousClock.now
        self.policyClock = policyClock ?? { ContinuousClock.now - start }
    }

    /// The names of the apps it presents for.
    package var appNames: [String] { apps.keys.sorted() }

    /// Queues what the store holds as delivered (after a restart), oldest first, and shows the first.
    package func restore() throws(CenterStoreError) {
        try pruneHistory()
        let crashed = (try? store.crashedExtensions()) ?? [:]
        for stored in try store.delivered() {
            let notification = remember(stored)
            if let name = crashed[stored.identifier] { rememberCrash(of: name, on: stored.identifier) }
            _ = deck.arrive(arrival(stored, notification: notification, startsMedia: false), at: policyClock())
        }
        let skipped = deck.unpresentable.flatMap { card in card.identifiers.map { ($0, card.app) } }
        showCurrent()
        for (identifier, app) in skipped { emit(.skipped(identifier: identifier, app: app)) }
        // What expired while the server was down leaves the screen now.
        expireDue()
        restoreSchedule()
    }

    /// Stores `incoming` durably, then queues it: shown at once when nothing is, added to the
    /// shown card when it is of its thread, else waiting. A notification a service extension
    /// applies to is queued once the extension has finished (see ``serviceConfiguration``).
    /// Throws before anything is stored when the app is unknown.
    /// `payload` is its payload decoded already, when the caller had to decode it or built it
    /// (it is not decoded again); `traits`, what its card needs beyond its payload, when the
    /// caller knows them (the trait sources are not asked then).
    package func receive(
        _ incoming: IncomingNotification, payload: APNsPayload? = nil, traits: NotificationTraits? = nil
    ) throws(CenterServiceError) -> StoredNotification {
        do {
            return try store(incoming, payload: payload, traits: traits)
        } catch {
            // Warnings told before it came (a desktop notification's mapping) go with it.
            pendingNotes[incoming.identifier] = nil
            throw error
        }
    }

    private func store(
        _ incoming: IncomingNotification, payload: APNsPayload?, traits: NotificationTraits?
    ) throws(CenterServiceError) -> StoredNotification {
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
            arrived(stored, payload: payload, traits: traits)
        }
        return stored
    }

    /// A notification delivered now (sent, or its trigger fired): decoded once, through its
    /// app's service extension when one applies, then queued.
    func arrived(_ stored: StoredNotification, payload: APNsPayload? = nil, traits: NotificationTraits? = nil) {
        let notification = remember(stored, payload: payload, traits: traits)
        if let app = apps[stored.app], let delivery = live[stored.identifier]?.delivery,
            runServiceStage(stored, delivery: delivery, app: app)
        {
            return
        }
        admit(stored, notification: notification)
    }

    /// Queues a stored notification as the presentation policy says, plays its arrival sound,
    /// and shows what the deck shows now.
    func admit(_ stored: StoredNotification, notification: UNNotification?) {
        let traits = live[stored.identifier]?.traits ?? NotificationTraits()
        let level = notification?.request.content.interruptionLevel ?? .active
        let startsMedia = traits.startsMedia && SoundPolicy.mayAutoPlayMedia(level: level, focus: focus)
        let before = deck.shown
        let outcome = deck.arrive(arrival(stored, notification: notification, startsMedia: startsMedia), at: policyClock())
        if outcome == .unpresentable {
            emit(.skipped(identifier: stored.identifier, app: stored.app))
            armExpiry()
            return
        }
        emit(.arrived(identifier: stored.identifier, app: stored.app, queued: deck.waiting.count))
        if let notification { playArrivalSound(stored, notification: notification) }
        armExpiry()
        switch outcome {
        case .shown, .replaced(shownCard: true):
            showCurrent()
        case .joinedShownCard:
            if let session = shownSession, let notification {
                try? session.present(notification)
            }
            startMediaIfWaiting()
            onDeckChange?()
        case .replaced(shownCard: false), .waiting, .unpresentable:
            if before != deck.shown { showCurrent() } else { onDeckChange?() }
        }
    }

    /// Removes notifications (all live ones when `identifiers` is `nil`); a removed shown card
    /// closes and the next shows.
    package func remove(
        identifiers: [String]?, states: Set<StoredNotification.State> = [.pending, .delivered],
        reason: RemovalReason = .removed
    ) throws(CenterStoreError) -> [StoredNotification] {
        let removed: [StoredNotification]
        if let identifiers {
            removed = try store.remove(identifiers: identifiers, states: states, ending: reason == .expired ? .expired : .removed)
        } else {
            removed = try store.removeAll(states: states)
        }
        // What was never delivered was pending: off the schedule.
        unscheduled(removed.filter { $0.deliveredAt == nil }.map(\.identifier))
        let ids = Set(removed.filter { $0.deliveredAt != nil }.map(\.identifier))
        if deck.remove(identifiers: ids) { showCurrent() } else { onDeckChange?() }
        emit(.removed(identifiers: removed.map(\.identifier), reason: reason))
        ended(removed.map(\.identifier))
        try? pruneHistory()
        return removed
    }

    /// Closes the shown session and stops its media.
    package func close() async {
        timer?.cancel()
        expiryTimer?.cancel()
        await arrivalSounds?.close()
        closeShownSession()
        await stopPresenters()
        try? await engine.stop()
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
