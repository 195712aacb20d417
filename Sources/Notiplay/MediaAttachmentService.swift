import NotiplayCore
import NotiplayViews
/// The built-in service extension: fetches the media named by the payload's top-level `media-url`
/// key and attaches it — the usual job of a service extension on iOS.
///
/// ```json
/// {"aps": {"alert": {"title": "Voice memo from Sam"}, "mutable-content": 1},
///  "media-url": "https://example.com/memos/sam.m4a"}
/// ```
///
/// `media-url` (``payloadKey``) is a string: a `file://`, `http://` or `https://` URL, or a path
/// relative to the payload file's folder when the runtime knows it
/// (`ServiceExtensionStage.Configuration.payloadDirectory`). `MediaFetcher` does the work:
/// `http(s)` downloads need `curl` on the host's `PATH` (`HostEnvironment.variables`); the file
/// lands in the media cache (`HostEnvironment.mediaCacheDirectory`; the `notiplay` command line
/// sets it) and is validated like any attachment.
///
/// When it runs: `ServiceExtensionStage` runs it when the app declares no service extension of
/// its own, the payload is eligible (alert text and `mutable-content: 1`) and it carries
/// `media-url`. An app may also name it in its service extension's `Info.plist`
/// (`NSExtensionPrincipalClass` = `MediaAttachmentService`).
///
/// When the fetch fails the notification is still shown, unchanged, as on iOS when a download
/// fails, and an `error` event names the URL and why. At the time limit
/// ``serviceExtensionTimeWillExpire()`` stops the fetch (a running `curl` is killed) and hands
/// over the original content.
public final class MediaAttachmentService: UNNotificationServiceExtension {
    /// The name it is registered under in ``ExtensionTypes``.
    public nonisolated static let typeName = "MediaAttachmentService"
    /// The top-level payload key naming the media: `media-url`.
    public nonisolated static let payloadKey = "media-url"

    /// How media are fetched (the stage sets the cache folder, limits and payload folder).
    var fetcher = MediaFetcher()
    /// The longest a download may take (the stage sets its time limit and grace).
    var fetchTimeLimit = Duration.seconds(31)

    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var original: UNNotificationContent?
    private var reference = ""
    private var fetch: Task<Void, Never>?

    /// Fetches the media named by `media-url` and hands over the content with it attached, or the
    /// content unchanged if there is no such key or the fetch fails.
    public override func didReceive(
        _ request: UNNotificationRequest,
        withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let content = request.content
        guard let value = content.jsonUserInfo[Self.payloadKey] else {
            contentHandler(content)
            return
        }
        guard let reference = value.stringValue else {
            reportError?(
                NotiplayError(.badData, file: Self.payloadKey, "expected a string (a URL); found \(value.typeName)")
                    .description + "; the notification is shown without it")
            contentHandler(content)
            return
        }
        self.contentHandler = contentHandler
        self.original = content
        self.reference = reference
        let fetcher = self.fetcher
        let limit = fetchTimeLimit
        fetch = Task { [weak self] in
            let result: Result<UNNotificationAttachment, NotiplayError>
            do throws(NotiplayError) {
                result = .success(try await fetcher.fetch(reference, timeLimit: limit))
            } catch {
                result = .failure(error)
            }
            self?.fetched(result)
        }
    }

    /// Stops the fetch and hands over the original content.
    public override func serviceExtensionTimeWillExpire() {
        guard contentHandler != nil, let original else { return }
        fetch?.cancel()
        reportError?(MediaFetcher.stopped(reference).description + "; the notification is shown without it")
        deliver(original)
    }

    private func fetched(_ result: Result<UNNotificationAttachment, NotiplayError>) {
        guard contentHandler != nil, let original else { return }
        switch result {
        case .success(let attachment):
            let content = UNMutableNotificationContent(original)
            content.attachments.append(attachment)
            deliver(content.content)
        case .failure(let error):
            reportError?(error.description + "; the notification is shown without it")
            deliver(original)
        }
    }

    private func deliver(_ content: UNNotificationContent) {
        guard let handler = contentHandler else { return }
        contentHandler = nil
        handler(content)
    }
}
