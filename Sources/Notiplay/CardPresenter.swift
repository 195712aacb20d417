import Foundation
import NotiplayCore
import NotiplayViews

/// The card: the notification shown, the extension presenting it, its action buttons, whether it
/// was closed, and its media button (``MediaButton``). It records what happens to them.
@MainActor
final class CardPresenter {
    /// The extension that will present a notification, found before anything on screen changes.
    struct Extension {
        /// Its manifest; `nil` for the default card.
        let manifest: ExtensionManifest?
        /// Makes it.
        let make: ExtensionTypes.Factory
    }

    private let app: AppDefinition
    private let registry: ExtensionRegistry
    private let types: ExtensionTypes
    private let log: EventLog
    /// Called when anything on the card may have changed.
    var onChange: (@MainActor () -> Void)?

    /// The notification on the card.
    private(set) var notification: UNNotification?
    /// The presenting extension.
    private(set) var controller: (any UNNotificationContentExtension & TerminalViewController)?
    /// Its manifest; `nil` for the default card.
    private(set) var manifest: ExtensionManifest?
    /// The action buttons.
    private(set) var actions: [UNNotificationAction] = []
    /// Whether the card was closed.
    private(set) var isDismissed = false
    private var button = MediaButton()
    /// An attachment is gone since validation: no media button.
    private var mediaDisabled = false

    init(app: AppDefinition, registry: ExtensionRegistry, types: ExtensionTypes, log: EventLog) {
        self.app = app
        self.registry = registry
        self.types = types
        self.log = log
    }

    /// Whether a card is on screen.
    var isShown: Bool { controller != nil && !isDismissed }

    /// The category of the notification shown.
    var category: UNNotificationCategory? {
        app.category(notification?.request.content.categoryIdentifier ?? "")
    }

    // MARK: Presenting

    /// Whether `notification` belongs to the thread of the card on screen, whose extension
    /// receives it rather than a new card.
    func continuesThread(_ notification: UNNotification) -> Bool {
        let thread = notification.request.content.threadIdentifier
        guard isShown, let shown = self.notification, !thread.isEmpty else { return false }
        return shown.request.content.threadIdentifier == thread
    }

    /// Hands `notification` to the extension on screen.
    func redeliver(_ notification: UNNotification) {
        guard let controller else { return }
        self.notification = notification
        checkAttachments(notification.request.content)
        log.record(received(notification, redelivery: true))
        controller.didReceive(notification)
        updateButton()
    }

    /// The extension that presents `content`: the one claiming its category, or the default card.
    /// - Throws: ``NotiplayError`` if the extension claiming the category has no registered type.
    func contentExtension(for content: UNNotificationContent) throws(NotiplayError) -> Extension {
        let manifest = registry.contentExtension(for: content.categoryIdentifier)
        let typeName = manifest?.typeName ?? DefaultContentExtension.typeName
        guard let factory = types.factory(for: typeName) else {
            throw NotiplayError(
                .badData, file: manifest?.path,
                "names \(typeName), which is not a registered extension type")
        }
        return Extension(manifest: manifest, make: factory)
    }

    /// Shows a new card: makes `presenting`, gives it `context`, and hands it `notification`.
    func show(
        _ notification: UNNotification, with presenting: Extension, context: NSExtensionContext
    ) {
        let content = notification.request.content
        let controller = presenting.make()
        manifest = presenting.manifest
        self.controller = controller
        self.notification = notification
        isDismissed = false
        button = MediaButton()
        actions = app.category(content.categoryIdentifier)?.actions ?? []
        controller.extensionContext = context
        layOutView()
        controller.view.onChange = { [weak self] in self?.onChange?() }
        checkAttachments(content)
        controller.viewDidLoad()
        log.record(received(notification, redelivery: false))
        controller.didReceive(notification)
        controller.viewWillAppear(false)
        controller.viewDidAppear(false)
        updateButton(force: true)
    }

    /// How wide the card is drawn, in columns; the view's bounds follow it.
    var cardColumns = 80 {
        didSet { if cardColumns != oldValue { layOutView() } }
    }

    /// Sets the view's frame in points: at the content area's origin, the card's content width,
    /// and the height its rows will have (the preferred height, else the manifest's ratio of the
    /// width, else the width).
    func layOutView() {
        guard let controller else { return }
        let width = CGFloat(max(1, cardColumns - 4)) * PointsPerCell.width
        var height = controller.preferredContentSize.height
        if !(height.isFinite && height > 0) {
            let ratio = manifest?.initialContentSizeRatio ?? 1
            height = width * CGFloat(ratio.isFinite && ratio > 0 ? ratio : 1)
        }
        height = min(height, CGFloat(CardLayout.maximumViewRows) * PointsPerCell.height)
        controller.view.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        controller.view.origin = .zero
    }

    private func received(_ notification: UNNotification, redelivery: Bool) -> PresentationEvent {
        .didReceive(
            identifier: notification.request.identifier, category: notification.request.content.categoryIdentifier,
            extension: manifest?.bundleName ?? DefaultContentExtension.typeName, redelivery: redelivery)
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
                log.record(.error("attachment \(error.description); the media button is disabled"))
            }
        }
    }

    /// Closes the card; `false` if it was closed already.
    func dismiss(reason: PresentationEvent.DismissReason) -> Bool {
        guard !isDismissed else { return false }
        isDismissed = true
        log.record(.dismissed(reason: reason))
        return true
    }

    /// Lets the extension go: it hears that its view disappears, and its context no longer
    /// reaches the session.
    func detach() {
        guard let controller, controller.extensionContext?.session != nil else { return }
        controller.viewWillDisappear(false)
        controller.viewDidDisappear(false)
        controller.extensionContext?.session = nil
    }

    /// The extension replaced the action buttons.
    func replaceActions(_ newActions: [UNNotificationAction]) {
        actions = newActions
        log.record(.actions(identifiers: newActions.map(\.identifier)))
        onChange?()
    }

    // MARK: The media button

    /// The button type: `.none` when the extension sets none, its frame is empty, or its media is
    /// gone.
    var buttonType: UNNotificationContentExtensionMediaPlayPauseButtonType {
        guard let controller, !mediaDisabled, !Rect(points: controller.mediaPlayPauseButtonFrame).isEmpty else {
            return .none
        }
        return controller.mediaPlayPauseButtonType
    }

    /// What the button shows.
    var buttonState: PresentationSession.ButtonState { button.state }

    /// Whether the extension last reported its media as playing (or the button was last pressed
    /// to play).
    var isPlaying: Bool { button.isPlaying }

    private func updateButton(force: Bool = false) {
        guard let state = button.update(for: buttonType, force: force) else { return }
        log.record(.buttonState(state))
        onChange?()
    }

    /// The extension reported its media playing (`mediaPlayingStarted()`) or paused.
    func reportPlaying(_ playing: Bool) {
        guard !isDismissed else { return }
        let event: PresentationEvent = playing ? .mediaPlayingStarted : .mediaPlayingPaused
        guard buttonType != .none else {
            log.record(.error(
                "\(event.name)() ignored: the extension has no media button (type none: its mediaPlayPauseButtonType"
                    + " is .none or its mediaPlayPauseButtonFrame empty — declared as `var mediaPlayPauseButtonFrame: CGRect`?)"))
            return
        }
        log.record(event)
        button.report(playing: playing)
        updateButton()
    }

    /// The media button: the extension is asked to play or to pause.
    func pressButton() {
        guard let media = controller, buttonType != .none else { return }
        switch button.press() {
        case .pause:
            log.record(.mediaPause)
            updateButton()
            media.mediaPause()
        case .play:
            log.record(.mediaPlay)
            updateButton()
            media.mediaPlay()
        }
    }

    /// A touch on the extension's content: under an overlay button, while playing, it pauses.
    func touchContent() {
        if buttonType == .overlay && isPlaying { pressButton() }
    }
}
