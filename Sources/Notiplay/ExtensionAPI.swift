import NotiplayCore
import NotiplayViews

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

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
/// Subclass ``TerminalViewController`` and adopt this protocol. Apple's optional members are split
/// into two more protocols, so that the runtime can tell what an extension provides:
/// ``UNNotificationContentExtensionResponseHandling`` (without it, every action is forwarded to
/// the app) and ``UNNotificationContentExtensionMediaControl`` (without it, no media button).
@MainActor
public protocol UNNotificationContentExtension: AnyObject {
    /// Called on presentation, and again for each new notification of the same thread while the
    /// card is shown.
    func didReceive(_ notification: UNNotification)
}

/// An extension that handles the actions of its notifications itself.
@MainActor
public protocol UNNotificationContentExtensionResponseHandling: UNNotificationContentExtension {
    /// Called when a person chooses an action. Call `completion` once — now or later — with what
    /// should happen to the card; not calling it within the action time limit counts as
    /// ``UNNotificationContentExtensionResponseOption/dismiss``.
    func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void)
}

/// An extension that handles the actions of its notifications with Swift concurrency (Apple's
/// `async` variant of `didReceive(_:completionHandler:)`).
///
/// ```swift
/// func didReceive(_ response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption {
///     await store.complete(response.notification.request.identifier)
///     return .doNotDismiss
/// }
/// ```
///
/// The same time limit applies: an answer that comes after it is ignored and logged, and the
/// response counts as ``UNNotificationContentExtensionResponseOption/dismiss``. When an extension
/// adopts both protocols, the runtime calls this one.
@MainActor
public protocol UNNotificationContentExtensionAsyncResponseHandling: UNNotificationContentExtension {
    /// Called when a person chooses an action; returns what should happen to the card.
    func didReceive(_ response: any UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption
}

/// An extension with media: the runtime draws the play/pause button and calls ``mediaPlay()`` and
/// ``mediaPause()``; the extension reports what really happens through its context's
/// ``NSExtensionContext/mediaPlayingStarted()`` and ``NSExtensionContext/mediaPlayingPaused()``.
@MainActor
public protocol UNNotificationContentExtensionMediaControl: UNNotificationContentExtension {
    /// The kind of button.
    var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { get }
    /// Where the button goes, in the view's cells; an empty frame means no button.
    var mediaPlayPauseButtonFrame: Rect { get }
    /// The button's colour.
    var mediaPlayPauseButtonTintColor: TerminalColor { get }
    /// Start the media: called by the runtime only.
    func mediaPlay()
    /// Pause the media: called by the runtime only.
    func mediaPause()
}

extension UNNotificationContentExtensionMediaControl {
    public var mediaPlayPauseButtonTintColor: TerminalColor { .systemTint }
}

/// The base of every content extension: a view of terminal cells, with the sizing and title the
/// card uses (the counterpart of iOS's `UIViewController`).
@MainActor
open class TerminalViewController {
    /// The extension's view.
    public let view = TerminalView()
    /// The height the view wants, in rows (the width is ignored, as on iOS); zero keeps the
    /// height from `UNNotificationExtensionInitialContentSizeRatio`.
    public var preferredContentSize = Size.zero {
        didSet { extensionContext?.session?.contentChanged() }
    }
    /// The card's title when the manifest sets `UNNotificationExtensionOverridesDefaultTitle`.
    public var title: String? {
        didSet { extensionContext?.session?.contentChanged() }
    }
    /// The runtime's side of the extension, set before ``UNNotificationContentExtension/didReceive(_:)``.
    public internal(set) var extensionContext: NSExtensionContext?

    /// An extension is made by the runtime, with no arguments.
    public required init() {}
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

    /// Asks the app to open `url`; the app gets an open-URL event.
    public func open(_ url: URL) {
        session?.openURL(url)
    }
}

/// Two labels' spans on one line: `Label("Reminder: ", style: .bold) + Label(body)`.
public func + (lhs: Label, rhs: Label) -> Label {
    Label(spans: lhs.spans + rhs.spans, alignment: lhs.alignment)
}
