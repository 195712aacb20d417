import NotiplayCore
import NotiplayViews

public import Foundation

/// The play/pause button the runtime draws for an extension (Apple:
/// `UNNotificationContentExtensionMediaPlayPauseButtonType`).
public enum UNNotificationContentExtensionMediaPlayPauseButtonType: String, Sendable, Hashable {
    /// No button.
    case none
    /// Always visible at the frame: ▶ while paused, ⏸ while playing.
    case `default`
    /// A dim ▶ over the content while paused, hidden while playing; touching the content pauses.
    case overlay
}

/// What happens to the card after an extension handled a response (Apple:
/// `UNNotificationContentExtensionResponseOption`).
public enum UNNotificationContentExtensionResponseOption: String, Sendable, Hashable {
    /// The card stays; the extension handled the action.
    case doNotDismiss
    /// The card closes; the extension handled the action.
    case dismiss
    /// The card closes and the action goes on to the app.
    case dismissAndForwardAction
}


/// A notification content extension: a view controller that draws a notification's card for the
/// categories its `Info.plist` claims (Apple: `UNNotificationContentExtension`).
///
/// Subclass ``TerminalViewController`` and adopt this protocol, declared as on iOS:
///
/// ```swift
/// class NotificationViewController: TerminalViewController, UNNotificationContentExtension {
///     func didReceive(_ notification: UNNotification) { … }
///     var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { .default }
///     var mediaPlayPauseButtonFrame: CGRect { CGRect(x: 0, y: 0, width: 16, height: 16) }
///     func mediaPlay() { player?.play() }
///     func mediaPause() { player?.pause() }
///     func didReceive(_ response: UNNotificationResponse,
///                     completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void) { … }
/// }
/// ```
///
/// Only ``didReceive(_:)-(UNNotification)`` is required. Every other member is optional, as on
/// iOS, and means what iOS makes of its absence:
/// - no `didReceive(_:completionHandler:)` (nor its `async` form): every action goes on to the
///   app and the card closes (`.dismissAndForwardAction`);
/// - no `mediaPlayPauseButtonType`: `.none`; no `mediaPlayPauseButtonFrame`: an empty frame; with
///   either, no media button is drawn and `mediaPlay()`/`mediaPause()` are never called;
/// - no `mediaPlayPauseButtonTintColor`: the card's tint (`.systemBlue`).
///
/// A member must be declared with the protocol's exact name and types (a frame typed `Rect`, a
/// misspelt `mediaPlayPauseButtonTyp`): otherwise Swift takes it, without a warning, as a member
/// of the class's own, and the default applies. A script's `expect button` failure and the
/// `error` event of a report without a button name the members to check.
///
/// In a class hierarchy, the class that adopts the protocol must implement every optional member
/// a subclass overrides: a subclass cannot override a default the base class takes from the
/// protocol.
@MainActor
public protocol UNNotificationContentExtension: AnyObject {
    /// Called on presentation, and again for each new notification of the same thread while the
    /// card is shown.
    func didReceive(_ notification: UNNotification)

    /// Called when a person chooses an action. Call `completion` once — now or later — with what
    /// should happen to the card; not calling it within the action time limit counts as
    /// ``UNNotificationContentExtensionResponseOption/dismiss``. Implementing it makes the
    /// extension responsible for every action of its categories.
    ///
    /// The default implementation answers with the `async` form's answer.
    func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void)

    /// The Swift-concurrency form of ``didReceive(_:completionHandler:)``: returns what should
    /// happen to the card. The same time limit applies; a later answer is ignored and logged.
    ///
    /// ```swift
    /// func didReceive(_ response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption {
    ///     await store.complete(response.notification.request.identifier)
    ///     return .doNotDismiss
    /// }
    /// ```
    ///
    /// The runtime calls the completion-handler form, whose default calls this one; the default
    /// of this one forwards the action to the app and closes the card, as iOS does for an
    /// extension that handles no actions.
    func didReceive(_ response: any UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption

    /// The kind of media button the runtime draws; `.none` by default.
    var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { get }
    /// Where the button goes, in points of the view (one cell is 8 × 16 points: ``PointsPerCell``);
    /// an empty frame, the default, means no button.
    var mediaPlayPauseButtonFrame: CGRect { get }
    /// The button's colour; the card's tint by default.
    var mediaPlayPauseButtonTintColor: UIColor { get }
    /// Start the media: called by the runtime only, when the button is pressed.
    func mediaPlay()
    /// Pause the media: called by the runtime only, when the button is pressed.
    func mediaPause()
}

extension UNNotificationContentExtension {
    /// Answers with the `async` form's answer (by default: forward the action, close the card).
    public func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        // Started at once: when the `async` form answers without suspending (the default does), the
        // answer comes before this returns, as it would from a handler that calls `completion` itself.
        Task.immediate { @MainActor in completion(await self.didReceive(response)) }
    }

    /// Forwards the action to the app and closes the card, as iOS does for an extension that
    /// handles no actions.
    public func didReceive(_ response: any UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption {
        UnhandledResponse.current?.wasUnhandled = true
        return .dismissAndForwardAction
    }

    /// No media button.
    public var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { .none }
    /// An empty frame: no media button.
    public var mediaPlayPauseButtonFrame: CGRect { .zero }
    /// The card's tint.
    public var mediaPlayPauseButtonTintColor: UIColor { .systemBlue }
    /// Does nothing.
    public func mediaPlay() {}
    /// Does nothing.
    public func mediaPause() {}
}

/// Set while the runtime hands a response to an extension: the default response handler marks
/// it, so that the runtime reports the action as forwarded for want of a handler — as it is on iOS
/// — rather than as the extension's answer.
final class UnhandledResponse: @unchecked Sendable {
    // `@unchecked`: made, marked and read on the main actor only; the task-local carries it there.
    @TaskLocal static var current: UnhandledResponse?
    var wasUnhandled = false
}

/// The base of every content extension: a view of terminal cells, with the sizing and title the
/// card uses (the counterpart of iOS's `UIViewController`).
@MainActor
open class TerminalViewController {
    /// The extension's view.
    public let view = TerminalView()
    /// The size the view wants, in points (one row is 16 points: ``PointsPerCell``); only the
    /// height counts (the width is ignored, as on iOS). Zero keeps the height from
    /// `UNNotificationExtensionInitialContentSizeRatio`.
    public var preferredContentSize = CGSize.zero {
        didSet { extensionContext?.session?.preferredSizeChanged() }
    }
    /// The card's title when the manifest sets `UNNotificationExtensionOverridesDefaultTitle`.
    public var title: String? {
        didSet { extensionContext?.session?.contentChanged() }
    }
    /// The runtime's side of the extension, set before ``UNNotificationContentExtension/didReceive(_:)``.
    public internal(set) var extensionContext: NSExtensionContext?

    /// An extension is made by the runtime, with no arguments.
    public required init() {}

    /// Called once, after the runtime made the extension and set its ``extensionContext`` and
    /// ``TerminalView/bounds``, before the first ``UNNotificationContentExtension/didReceive(_:)``
    /// (Apple: `viewDidLoad()`). Does nothing by default; call `super.viewDidLoad()` as on iOS.
    open func viewDidLoad() {}

    /// Called before the card first shows, after the first `didReceive(_:)`. Does nothing by default.
    open func viewWillAppear(_ animated: Bool) {}

    /// Called when the card first shows. Does nothing by default.
    open func viewDidAppear(_ animated: Bool) {}

    /// Called when the card is about to close. Does nothing by default.
    open func viewWillDisappear(_ animated: Bool) {}

    /// Called when the card has closed. Does nothing by default.
    open func viewDidDisappear(_ animated: Bool) {}
}

/// The content of an extension's view: elements of the view toolkit, top to bottom.
///
/// ```swift
/// view.elements = [
///     Label("Reminder: ", style: .bold) + Label(notification.request.content.body),
///     ProgressBar(value: 0.4, label: "0:01 / 0:03"),
/// ]
/// view.setText("plain text\non two lines")   // or lines of plain text
/// ```
///
/// Text is cleaned of control characters and escape sequences when it is drawn.
@MainActor
public final class TerminalView {
    /// The view's rectangle in points (one cell is 8 × 16 points: ``PointsPerCell``): as wide as
    /// the card's content, as high as its rows. The runtime sets it before
    /// ``TerminalViewController/viewDidLoad()`` and again when the card's width changes.
    public internal(set) var bounds = CGRect(x: 0, y: 0, width: 352, height: 176)

    /// Where the view is in its superview, in points: the origin of its ``frame``.
    var origin = CGPoint.zero

    /// What the view shows, top to bottom.
    public var elements: [any ViewElement] = [] {
        didSet { onChange?() }
    }

    /// The view as lines of plain text: setting it shows each line as a ``Label``; reading it
    /// gives the text of the labels and paragraphs shown.
    public var lines: [String] {
        get {
            elements.map { element in
                if let label = element as? Label { return label.spans.map(\.text).joined() }
                if let paragraph = element as? Paragraph { return paragraph.text }
                return ""
            }
        }
        set { elements = newValue.map { Label($0) } }
    }

    var onChange: (@MainActor () -> Void)?

    /// Replaces the view's content with `text`, one ``Label`` per line.
    public func setText(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

/// The runtime's side of a presented extension (Apple: `NSExtensionContext` with the
/// UserNotificationsUI additions). Every call is accepted at any time and is idempotent.
@MainActor
public final class NSExtensionContext {
    weak var session: PresentationSession?

    init(session: PresentationSession) {
        self.session = session
    }

    /// The media started playing (also when it started on its own): the button shows ⏸ (default)
    /// or hides (overlay).
    public func mediaPlayingStarted() {
        session?.extensionReportedPlaying(true)
    }

    /// The media paused or ended: the button shows ▶.
    public func mediaPlayingPaused() {
        session?.extensionReportedPlaying(false)
    }

    /// The card's action buttons; setting replaces them on screen.
    public var notificationActions: [UNNotificationAction] {
        get { session?.actions ?? [] }
        set { session?.replaceActions(newValue) }
    }

    /// Opens the app as if the notification had been chosen: the default action goes to the app.
    public func performNotificationDefaultAction() {
        session?.performDefaultAction(from: .extension)
    }

    /// Closes the card.
    public func dismissNotificationContentExtension() {
        session?.dismiss(reason: .extension)
    }

    /// Asks the app to open `url`; the app gets an open-URL event. `completionHandler` is told
    /// whether it was passed on (`false` once the card has closed).
    public func open(_ url: URL, completionHandler: ((Bool) -> Void)? = nil) {
        guard let session, !session.isDismissed else {
            completionHandler?(false)
            return
        }
        session.openURL(url)
        completionHandler?(true)
    }
}

/// Two labels' spans on one line: `Label("Reminder: ", style: .bold) + Label(body)`.
public func + (lhs: Label, rhs: Label) -> Label {
    Label(spans: lhs.spans + rhs.spans, alignment: lhs.alignment)
}
