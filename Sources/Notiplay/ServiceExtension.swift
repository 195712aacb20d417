import NotiplayCore
import NotiplayViews
/// A notification service extension: edits a notification's content before it is shown (Apple:
/// `UNNotificationServiceExtension`).
///
/// Subclass it, override ``didReceive(_:withContentHandler:)``, and register the subclass with
/// ``ExtensionTypes/registerService(_:as:)`` under the name its `Info.plist` gives
/// (`NSExtensionPrincipalClass`). The runtime runs it — through `ServiceExtensionStage` — only
/// for payloads with alert text and `mutable-content: 1`, and waits for the content handler up to
/// a time limit (30 s by default). When the limit passes it calls
/// ``serviceExtensionTimeWillExpire()``; content handed over after that, within a short grace, is
/// still used, and otherwise the original content is shown.
///
/// ```swift
/// final class NotificationService: UNNotificationServiceExtension {
///     var contentHandler: ((UNNotificationContent) -> Void)?
///     var bestAttemptContent: UNMutableNotificationContent?
///
///     override func didReceive(
///         _ request: UNNotificationRequest,
///         withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
///     ) {
///         self.contentHandler = contentHandler
///         bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
///         if let bestAttemptContent {
///             bestAttemptContent.title = "\(bestAttemptContent.title) [modified]"
///             contentHandler(bestAttemptContent)
///         }
///     }
///
///     override func serviceExtensionTimeWillExpire() {
///         if let contentHandler, let bestAttemptContent { contentHandler(bestAttemptContent) }
///     }
/// }
/// ```
///
/// As on iOS: the handler takes a copy of the content it is given, so later edits change nothing
/// shown.
///
/// Everything happens on the main actor: the handler is called there, and calling it from
/// elsewhere does not compile. Only the first call counts; content that removes the alert text
/// (no title and no body, where the original had one) is ignored, and attachments the extension
/// adds are validated again — an invalid one is dropped. Each of these is written to the event log.
@MainActor
open class UNNotificationServiceExtension {
    /// An extension is made by the runtime, with no arguments.
    public required init() {}

    /// Writes an `error` event to the running stage's log (set by `ServiceExtensionStage`; for
    /// the built-in extensions).
    var reportError: (@MainActor (String) -> Void)?

    /// Called once with the notification's request. Call `contentHandler` once — now or later —
    /// with the content to show.
    ///
    /// The default implementation hands over `request.content` unchanged.
    /// - Parameters:
    ///   - request: The notification as it arrived.
    ///   - contentHandler: Takes the content to show; only its first call counts.
    open func didReceive(
        _ request: UNNotificationRequest,
        withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        contentHandler(request.content)
    }

    /// Called when the time limit has passed and the content handler was not called yet: call it
    /// now with your best attempt, or the original content is shown.
    ///
    /// The default implementation does nothing.
    open func serviceExtensionTimeWillExpire() {}
}
