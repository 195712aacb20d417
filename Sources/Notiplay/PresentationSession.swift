import NotiplayPlayback

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Presents notifications with their content extension and runs the media button, actions and
/// responses with Apple's semantics. Everything that happens goes to ``log``.
@MainActor
public final class PresentationSession {
    /// The state of the media button, as `buttonState` events name it.
    public enum ButtonState: String, Sendable {
        /// No button (type `.none`, an empty frame, or no media).
        case none
        /// ▶: paused.
        case play
        /// ⏸: playing (`.default` only).
        case pause
        /// Playing under an `.overlay` button, which hides.
        case hidden
    }

    /// What a person does to the card.
    public enum Input: Sendable, Equatable {
        /// The media button (space or p).
        case media
        /// A touch on the extension's content (pauses under an overlay button).
        case tapContent
        /// The action button with this number, from 1; `text` answers a text-input action.
        case action(Int, text: String? = nil)
        /// The action with this identifier.
        case actionNamed(String, text: String? = nil)
        /// The notification itself (Enter).
        case defaultAction
        /// Close the card (Esc or d).
        case dismiss
        /// Move the card's media to this position, in seconds (when ``canSeek``).
        case seek(to: Double)
        /// Move the card's media by this many seconds, back when negative (← and →, when ``canSeek``).
        case seekBy(Double)
    }

    /// Limits and options.
    public struct Configuration: Sendable {
        /// How long an extension may take to call a response's completion handler.
        public var responseTimeLimit: Duration
        /// How long the app's command for a forwarded action may run before it is stopped.
        public var commandTimeLimit: Duration
        /// The clock both limits are measured on: the system's, or a test's clock that moves only
        /// when the test says.
        public var clock: any Clock<Duration>
        /// The variables the app's command runs with, and where its output goes.
        public var environment: HostEnvironment

        /// The defaults: 10 s for a completion handler, 30 s for the app's command, the system's
        /// clock, and an empty ``HostEnvironment``.
        public init(
            responseTimeLimit: Duration = .seconds(10), commandTimeLimit: Duration = .seconds(30),
            clock: any Clock<Duration> = ContinuousClock(), environment: HostEnvironment = HostEnvironment()
        ) {
            self.responseTimeLimit = responseTimeLimit
            self.commandTimeLimit = commandTimeLimit
            self.clock = clock
            self.environment = environment
        }
    }

    /// The session presenting now, through which ``MediaPlayer`` reaches the engine: the newest
    /// one, or the one that last presented or handled an input (players made then play through it).
    static weak var current: PresentationSession?
    /// Counts the cards presented; a ``MediaPlayer`` plays only while the card it was made for is shown.
    private(set) var cardNumber = 0

    public let app: AppDefinition
    public let registry: ExtensionRegistry
    public let types: ExtensionTypes
    public let configuration: Configuration
    /// The event log.
    public let log: EventLog
    let engine: any PlaybackEngine

    /// The notification on the card.
    public private(set) var notification: UNNotification?
    /// Every notification presented and not removed through ``UNUserNotificationCenter``.
    var delivered: [UNNotification] = []
    /// Requests waiting to be delivered (none until notiplay has a notification center).
    var pending: [UNNotificationRequest] = []
    /// The presenting extension.
    public private(set) var controller: (any UNNotificationContentExtension & TerminalViewController)?
    /// Its manifest; `nil` for the default card.
    public private(set) var manifest: ExtensionManifest?
    /// The action buttons on the card.
    public private(set) var actions: [UNNotificationAction] = []
    /// The media button.
    public private(set) var buttonState = ButtonState.none
    /// Whether the extension last reported its media as playing.
    public private(set) var isPlaying = false
    /// Whether the card was closed.
    public private(set) var isDismissed = false
    /// Called when anything on the card may have changed.
    public var onChange: (@MainActor () -> Void)?

    var currentPlayer: MediaPlayer? {
        didSet { if currentPlayer !== oldValue { earlyEvents = [] } }
    }
    private var earlyEvents: [PlaybackEvent] = []
    private var mediaDisabled = false
    private var pendingResponses = 0
    private var engineEvents: Task<Void, Never>?
    private var commands: [Task<Void, Never>] = []

    /// A session presenting for `app`, with the extensions of `registry` implemented by `types`,
    /// playing media through `engine`.
    public init(
        app: AppDefinition, registry: ExtensionRegistry, types: ExtensionTypes, engine: any PlaybackEngine,
        log: EventLog = EventLog(), configuration: Configuration = Configuration()
    ) {
        self.app = app
        self.registry = registry
        self.types = types
        self.engine = engine
        self.log = log
        self.configuration = configuration
        Self.current = self
        let stream = engine.events()
        engineEvents = Task { @MainActor [weak self] in
            for await event in stream {
                guard let self else { return }
                self.engineEvent(event)
            }
        }
    }

    /// Stops listening to the engine. The engine itself belongs to the caller.
    public func close() {
        engineEvents?.cancel()
        if Self.current === self { Self.current = nil }
    }

    // MARK: Presentation

    /// Presents `notification`: a new card, or — when a card of the same thread is shown — the
    /// same extension's ``UNNotificationContentExtension/didReceive(_:)`` again.
    /// - Throws: ``NotiplayError`` if the extension claiming its category has no registered type.
    public func present(_ notification: UNNotification) throws(NotiplayError) {
        Self.current = self
        let content = notification.request.content
        delivered.removeAll { $0.request.identifier == notification.request.identifier }
        delivered.append(notification)
        if let shown = self.notification, !isDismissed, let controller,
            !content.threadIdentifier.isEmpty, shown.request.content.threadIdentifier == content.threadIdentifier
        {
            self.notification = notification
            checkAttachments(content)
            log.record("didReceive", receiveFields(notification) + [("redelivery", .bool(true))])
            controller.didReceive(notification)
            updateButton()
            return
        }
        let manifest = registry.contentExtension(for: content.categoryIdentifier)
        let typeName = manifest?.typeName ?? DefaultContentExtension.typeName
        guard let factory = types.factory(for: typeName) else {
            throw NotiplayError(
                .badData, file: manifest?.path,
                "names \(typeName), which is not a registered extension type")
        }
        if self.controller != nil { endCard() }
        cardNumber += 1
        let controller = factory()
        self.manifest = manifest
        self.controller = controller
        self.notification = notification
        isDismissed = false
        isPlaying = false
        buttonState = .none
        actions = app.category(content.categoryIdentifier)?.actions ?? []
        controller.extensionContext = NSExtensionContext(session: self)
        controller.view.onChange = { [weak self] in self?.contentChanged() }
        checkAttachments(content)
        log.record("didReceive", receiveFields(notification))
        controller.didReceive(notification)
        updateButton(force: true)
    }

    private func receiveFields(_ notification: UNNotification) -> [(String, JSONScalar)] {
        [
            ("identifier", .string(notification.request.identifier)),
            ("category", .string(notification.request.content.categoryIdentifier)),
            ("extension", .string(manifest?.bundleName ?? DefaultContentExtension.typeName)),
        ]
    }

    /// An attachment gone since validation: the card still shows, the media button is disabled,
    /// and an error event says why.
    private func checkAttachments(_ content: UNNotificationContent) {
        mediaDisabled = false
        for attachment in content.attachments where attachment.audioFile != nil {
            do {
                _ = try AttachmentValidator().validate(attachment.url.path, identifier: attachment.identifier)
            } catch {
                mediaDisabled = true
                log.record("error", [("message", .string("attachment \(error.description); the media button is disabled"))])
            }
        }
    }

    /// Something on the card changed (view, size, title).
    func contentChanged() {
        onChange?()
    }

    // MARK: The media button

    private var mediaControl: (any UNNotificationContentExtensionMediaControl)? {
        controller as? any UNNotificationContentExtensionMediaControl
    }

    /// The button type, `.none` when the extension has no media control, an empty frame, or its
    /// media is gone.
    public var buttonType: UNNotificationContentExtensionMediaPlayPauseButtonType {
        guard let media = mediaControl, !mediaDisabled, !media.mediaPlayPauseButtonFrame.isEmpty else { return .none }
        return media.mediaPlayPauseButtonType
    }

    private func updateButton(force: Bool = false) {
        let state: ButtonState =
            switch buttonType {
            case .none: .none
            case .default: isPlaying ? .pause : .play
            case .overlay: isPlaying ? .hidden : .play
            }
        guard force || state != buttonState else { return }
        buttonState = state
        log.record("buttonState", [("state", .string(state.rawValue))])
        onChange?()
    }

    func extensionReportedPlaying(_ playing: Bool) {
        let name = playing ? "mediaPlayingStarted" : "mediaPlayingPaused"
        guard !isDismissed else { return }
        guard buttonType != .none else {
            log.record("error", [("message", .string("\(name)() ignored: the extension has no media button (type none)"))])
            return
        }
        log.record(name)
        isPlaying = playing
        updateButton()
    }

    private func activateButton() {
        guard let media = mediaControl, buttonType != .none else { return }
        if isPlaying {
            log.record("mediaPause")
            isPlaying = false
            updateButton()
            media.mediaPause()
        } else {
            log.record("mediaPlay")
            isPlaying = true
            updateButton()
            media.mediaPlay()
        }
    }

    // MARK: Input

    /// Handles what a person did.
    public func handle(_ input: Input) {
        guard !isDismissed, controller != nil else { return }
        Self.current = self
        switch input {
        case .media:
            activateButton()
        case .tapContent:
            if buttonType == .overlay && isPlaying { activateButton() }
        case .action(let number, let text):
            guard actions.indices.contains(number - 1) else { return }
            respond(to: actions[number - 1], text: text)
        case .actionNamed(let identifier, let text):
            guard let action = actions.first(where: { $0.identifier == identifier }) else {
                log.record("error", [("message", .string("no action \"\(identifier)\" on the card"))])
                return
            }
            respond(to: action, text: text)
        case .defaultAction:
            performDefaultAction(from: "user")
        case .dismiss:
            if let category = app.category(notification?.request.content.categoryIdentifier ?? ""),
                category.options.contains(.customDismissAction)
            {
                forward(UNNotificationDismissActionIdentifier, text: nil)
            }
            dismiss(reason: "user")
        case .seek(let seconds):
            seek(to: seconds)
        case .seekBy(let delta):
            guard let player = seekablePlayer else { return }
            seek(to: player.position + delta)
        }
    }

    /// Whether the card's media can be moved: the extension shows a media button (its type is not
    /// `.none`, as on iOS, where only then does the system drive its media) and its player has
    /// loaded the attachment. Extensions without a media button keep control of their own media.
    public var canSeek: Bool { seekablePlayer != nil }

    private var seekablePlayer: MediaPlayer? {
        guard buttonType != .none, let player = currentPlayer, player.isLoaded, player.isFor(card: cardNumber) else {
            return nil
        }
        return player
    }

    private func seek(to seconds: Double) {
        guard let player = seekablePlayer else { return }
        var target = max(0, seconds)
        if let duration = player.duration { target = min(target, duration) }
        player.seek(to: target)
    }

    private func respond(to action: UNNotificationAction, text: String?) {
        guard let notification else { return }
        var fields: [(String, JSONScalar)] = [("identifier", .string(action.identifier))]
        let response: any UNNotificationResponse
        if action.isTextInput {
            let typed = text ?? ""
            fields.append(("text", .string(typed)))
            response = UNTextInputNotificationResponse(notification: notification, actionIdentifier: action.identifier, userText: typed)
        } else {
            response = UNNotificationActionResponse(notification: notification, actionIdentifier: action.identifier)
        }
        log.record("action", fields)
        let forwardedText = action.isTextInput ? text ?? "" : nil
        let asyncHandler = controller as? any UNNotificationContentExtensionAsyncResponseHandling
        let handler = controller as? any UNNotificationContentExtensionResponseHandling
        guard asyncHandler != nil || handler != nil else {
            forward(action.identifier, text: forwardedText)
            dismiss(reason: "forwarded")
            return
        }
        let gate = CompletionGate()
        pendingResponses += 1
        let limit = configuration.responseTimeLimit
        let clock = configuration.clock
        let timer = Task { @MainActor [weak self] in
            try? await clock.sleep(for: limit)
            guard !Task.isCancelled, let self, gate.claim() else { return }
            self.pendingResponses -= 1
            self.log.record(
                "response",
                [("option", .string("dismiss")), ("identifier", .string(action.identifier)), ("reason", .string("timeout"))])
            self.log.record(
                "error",
                [("message", .string("the completion handler for \"\(action.identifier)\" was not called within \(limit); counted as .dismiss"))])
            self.dismiss(reason: "timeout")
        }
        let complete: @MainActor (UNNotificationContentExtensionResponseOption) -> Void = { [weak self] option in
            guard let self else { return }
            guard gate.claim() else {
                let what = asyncHandler != nil ? "answered after the time limit" : "called again"
                self.log.record(
                    "error", [("message", .string("completion handler for \"\(action.identifier)\" \(what); ignored"))])
                return
            }
            timer.cancel()
            self.pendingResponses -= 1
            self.log.record("response", [("option", .string(option.rawValue)), ("identifier", .string(action.identifier))])
            switch option {
            case .doNotDismiss: break
            case .dismiss: self.dismiss(reason: "response")
            case .dismissAndForwardAction:
                self.forward(action.identifier, text: forwardedText)
                self.dismiss(reason: "response")
            }
        }
        if let asyncHandler {
            Task { @MainActor in complete(await asyncHandler.didReceive(response)) }
        } else if let handler {
            handler.didReceive(response) { option in complete(option) }
        }
    }

    private func forward(_ identifier: String, text: String?, url: String? = nil) {
        var fields: [(String, JSONScalar)] = [("action", .string(identifier))]
        if let text { fields.append(("text", .string(text))) }
        if let url { fields.append(("url", .string(url))) }
        log.record("forwarded", fields)
        // The app's command for forwarded actions, if the app file has one.
        guard let command = app.forwardedActions.command, let notification else { return }
        let response = AppCommandRunner.Response(action: identifier, text: text, url: url, notification: notification)
        commands.append(AppCommandRunner(command: command, configuration: configuration, log: log).start(response))
    }

    func performDefaultAction(from source: String) {
        guard !isDismissed else { return }
        log.record("action", [("identifier", .string(UNNotificationDefaultActionIdentifier)), ("source", .string(source))])
        forward(UNNotificationDefaultActionIdentifier, text: nil)
        dismiss(reason: "defaultAction")
    }

    func openURL(_ url: URL) {
        guard !isDismissed else { return }
        forward("openURL", text: nil, url: url.absoluteString)
    }

    func replaceActions(_ newActions: [UNNotificationAction]) {
        actions = newActions
        log.record("actions", [("identifiers", .string(newActions.map(\.identifier).joined(separator: ",")))])
        onChange?()
    }

    /// Whether card `number` is on screen: not dismissed, not replaced by another card.
    func isShowing(card number: Int) -> Bool {
        number == cardNumber && controller != nil && !isDismissed
    }

    /// Closes the card: media stops, the extension is let go.
    func dismiss(reason: String) {
        guard !isDismissed else { return }
        isDismissed = true
        log.record("dismissed", [("reason", .string(reason))])
        endCard()
        onChange?()
    }

    private func endCard() {
        if currentPlayer != nil {
            currentPlayer = nil
            let engine = self.engine
            Task { try? await engine.stop() }
        }
        controller?.extensionContext?.session = nil
    }

    // MARK: Engine events

    private func engineEvent(_ event: PlaybackEvent) {
        switch event.kind {
        case .outputFallback(let output):
            log.record("error", [("message", .string("no sound device could be opened; playing silently on the \(output) output"))])
            return
        default: break
        }
        guard let player = currentPlayer, let item = event.item else { return }
        guard let current = player.item else {
            // Loading: the engine may report the file before `load` returned its id.
            earlyEvents.append(event)
            return
        }
        guard item == current else { return }
        playerEvent(event, player)
    }

    /// A player's `load` returned: deliver the events of its file that came first.
    func playerLoaded(_ player: MediaPlayer) {
        let early = earlyEvents
        earlyEvents = []
        guard player === currentPlayer else { return }
        for event in early where event.item == player.item { playerEvent(event, player) }
    }

    private func playerEvent(_ event: PlaybackEvent, _ player: MediaPlayer) {
        switch event.kind {
        case .started(let position):
            log.record("playback", [("state", .string("started")), ("position", .number(position))])
        case .paused(let position):
            log.record("playback", [("state", .string("paused")), ("position", .number(position))])
        case .ended(let reason):
            var fields: [(String, JSONScalar)] = [("state", .string(reason == .endOfFile ? "ended" : "stopped"))]
            fields.append(("position", .number(player.duration ?? player.position)))
            if case .failed(let failure) = reason {
                fields[0].1 = .string("error")
                fields.append(("message", .string(failure.message)))
            }
            log.record("playback", fields)
        default: break
        }
        // A position update changes the card only through the extension's view (which says so).
        player.handle(event.kind)
    }

    /// Waits until every media command given so far reached the engine, and every app command
    /// started for a forwarded action ended (each is stopped after ``Configuration/commandTimeLimit``).
    public func settle() async {
        await currentPlayer?.settle()
        while !commands.isEmpty {
            let running = commands
            commands = []
            for command in running { await command.value }
        }
    }

    /// Whether a response is waiting for its completion handler.
    public var awaitsResponse: Bool { pendingResponses > 0 }
}

/// Lets exactly one of a completion handler and its timer win.
@MainActor
private final class CompletionGate {
    private var claimed = false

    func claim() -> Bool {
        if claimed { return false }
        claimed = true
        return true
    }
}
