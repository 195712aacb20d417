import NotiplayCore
package import NotiplayViews
package import NotiplayPlayback

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Presents notifications with their content extension and runs the media button, actions and
/// responses with Apple's semantics. Everything that happens goes to ``log``.
///
/// The session is the façade of the parts that do the work, and wires them together:
/// - the card and its media button (`CardPresenter`, `MediaButton`);
/// - responses and the completion handler's time limit (`ResponseCoordinator`);
/// - the engine: a lease per card for the card's ``MediaPlayer``s, and the engine's events passed
///   to the player that loaded last (`PlaybackRouter`, `EngineLease`);
/// - the app's delivered and pending notifications (`NotificationStore`);
/// - input (``handle(_:)``): keys, clicks on the card as laid out ``layoutWidth`` wide, and the
///   focus Tab moves (`PresentationSession+Focus.swift`); the app's command for forwarded actions.
///
/// While it calls into an extension it binds the card's scope (`PresentationScope`): what the
/// extension makes then (a ``MediaPlayer``) or asks for (``UNUserNotificationCenter/current()``)
/// belongs to that card and this session.
@MainActor
package final class PresentationSession {
    /// The app presenting: its name, categories and forwarded-actions command.
    public let app: AppDefinition
    /// The app's extensions, which claim the categories.
    public let registry: ExtensionRegistry
    /// The Swift types implementing the extensions.
    public let types: ExtensionTypes
    /// Limits and options.
    public let configuration: Configuration
    /// The event log.
    public let log: EventLog

    let presenter: CardPresenter
    let responses: ResponseCoordinator
    let router: PlaybackRouter
    let notifications: NotificationStore
    private var commands: [Task<Void, Never>] = []

    /// The notification on the card.
    public var notification: UNNotification? { presenter.notification }
    /// The presenting extension.
    public var controller: (any UNNotificationContentExtension & TerminalViewController)? { presenter.controller }
    /// Its manifest; `nil` for the default card.
    public var manifest: ExtensionManifest? { presenter.manifest }
    /// The action buttons on the card.
    public var actions: [UNNotificationAction] { presenter.actions }
    /// The media button.
    public var buttonState: ButtonState { presenter.buttonState }
    /// The button type, `.none` when the extension has no media control, an empty frame, or its
    /// media is gone.
    public var buttonType: UNNotificationContentExtensionMediaPlayPauseButtonType { presenter.buttonType }
    /// Whether the extension last reported its media as playing.
    public var isPlaying: Bool { presenter.isPlaying }
    /// Whether the card was closed.
    public var isDismissed: Bool { presenter.isDismissed }
    /// Whether a response is waiting for its completion handler.
    public var awaitsResponse: Bool { responses.pending > 0 }
    /// Called when anything on the card may have changed.
    public var onChange: (@MainActor () -> Void)?
    /// The width, in columns, the card is laid out at — to find what a click reaches and where Tab
    /// goes, and for the extension's `view.bounds`: a driver sets the width it draws at;
    /// ``Configuration/cardColumns`` (80) until then, and headless.
    public var layoutWidth: Int {
        get { presenter.cardColumns }
        set { presenter.cardColumns = newValue }
    }
    /// What Tab has focused (an extension's button or an action button); `nil` for nothing, when
    /// Enter is the default action. A new card starts with nothing focused.
    public internal(set) var focus: CardTarget?

    /// A session presenting for `app`, with the extensions of `registry` implemented by `types`,
    /// playing media through `engine`.
    public init(
        app: AppDefinition, registry: ExtensionRegistry, types: ExtensionTypes, engine: any PlaybackEngine,
        log: EventLog = EventLog(), configuration: Configuration = Configuration()
    ) {
        self.app = app
        self.registry = registry
        self.types = types
        self.log = log
        self.configuration = configuration
        presenter = CardPresenter(app: app, registry: registry, types: types, log: log)
        presenter.cardColumns = configuration.cardColumns
        responses = ResponseCoordinator(log: log, limit: configuration.responseTimeLimit, clock: configuration.clock)
        notifications = NotificationStore(log: log)
        router = PlaybackRouter(engine: engine, log: log, notifications: notifications)
        presenter.onChange = { [weak self] in self?.onChange?() }
        responses.outcomes = self
    }

    /// Stops listening to the engine. The engine itself belongs to the caller.
    public func close() {
        router.close()
    }

    /// Makes the media commands of the next card presented wait until `task` has ended: a host
    /// that shows several sessions on one engine (the notification center) passes the engine's
    /// stop for the card it showed before, so that the stop never lands after the new card's
    /// play.
    package func mediaWaits(for task: Task<Void, Never>) {
        router.gate = task
    }

    // MARK: Presentation

    /// Presents `notification`: a new card, or — when a card of the same thread is shown — the
    /// same extension's ``UNNotificationContentExtension/didReceive(_:)`` again.
    /// - Throws: ``NotiplayError`` if the extension claiming its category has no registered type.
    public func present(_ notification: UNNotification) throws(NotiplayError) {
        notifications.deliver(notification)
        if presenter.continuesThread(notification) {
            router.scope.bind { presenter.redeliver(notification) }
            return
        }
        let presenting = try presenter.contentExtension(for: notification.request.content)
        if presenter.controller != nil { endCard() }
        focus = nil
        router.newCard()
        router.scope.bind {
            presenter.show(notification, with: presenting, context: NSExtensionContext(session: self))
        }
    }

    /// Something on the card changed (view, size, title).
    func contentChanged() {
        onChange?()
    }

    /// The extension set its preferred size: its view is laid out again (its frame's height
    /// follows), and the card drawn again.
    func preferredSizeChanged() {
        presenter.layOutView()
        onChange?()
    }

    // MARK: What the extension asks through its context

    func extensionReportedPlaying(_ playing: Bool) {
        presenter.reportPlaying(playing)
    }

    func replaceActions(_ newActions: [UNNotificationAction]) {
        presenter.replaceActions(newActions)
    }

    func performDefaultAction(from source: PresentationEvent.ActionSource) {
        guard !presenter.isDismissed else { return }
        log.record(.action(identifier: UNNotificationDefaultActionIdentifier, source: source))
        forward(UNNotificationDefaultActionIdentifier, text: nil)
        dismiss(reason: .defaultAction)
    }

    func openURL(_ url: URL) {
        guard !presenter.isDismissed else { return }
        forward("openURL", text: nil, url: url.absoluteString)
    }

    /// Closes the card: media stops, the extension is let go.
    func dismiss(reason: PresentationEvent.DismissReason) {
        guard presenter.dismiss(reason: reason) else { return }
        endCard()
        onChange?()
    }

    /// The card ends (closed, or replaced by another): its lease is revoked, its media stops, and
    /// its extension's context no longer reaches the session.
    private func endCard() {
        router.endCard()
        presenter.detach()
    }

    // MARK: Forwarded actions

    func forward(_ identifier: String, text: String?, url: String? = nil) {
        log.record(.forwarded(action: identifier, text: text, url: url))
        // The app's command for forwarded actions, if the app file has one.
        guard let command = app.forwardedActions.command, let notification else { return }
        let response = AppCommandRunner.Response(action: identifier, text: text, url: url, notification: notification)
        commands.append(AppCommandRunner(command: command, configuration: configuration, log: log).start(response))
    }

    /// Waits until every media command given so far reached the engine, and every app command
    /// started for a forwarded action ended (each is stopped after ``Configuration/commandTimeLimit``).
    public func settle() async {
        await router.settle()
        while !commands.isEmpty {
            let running = commands
            commands = []
            for command in running { await command.value }
        }
    }
}

extension PresentationSession: ResponseOutcomes {}
