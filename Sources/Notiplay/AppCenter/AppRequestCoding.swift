#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NotiplayCenterClient
import NotiplayCore

/// An app's requests in the protocol's terms and back: the `send` a request becomes, the
/// categories a `categories` request carries, and the requests and notifications a `list`
/// reply holds for the app.
enum AppRequestCoding {
    /// The `send` for `request`: its content as an APNs payload, its identifier, its trigger
    /// (none: deliver now) and its attachments' files, inline.
    /// - Throws: ``UNError`` ``UNError/Code-swift.enum/attachmentMoveIntoDataStoreFailed`` when an
    ///   attachment's file can no longer be read.
    static func send(_ request: UNNotificationRequest, app: String) throws(UNError) -> SendOperation {
        var uploads: [AttachmentUpload] = []
        for attachment in request.content.attachments {
            guard let data = try? Data(contentsOf: attachment.url) else {
                throw UNError(.attachmentMoveIntoDataStoreFailed, "\(attachment.url.path): the attachment's file cannot be read")
            }
            let kind: AttachmentUpload.Kind = attachment.audioFile == nil ? .image : .audio
            uploads.append(AttachmentUpload(name: attachment.url.lastPathComponent, kind: kind, data: data))
        }
        return SendOperation(
            payload: request.content.payloadJSON, app: app, identifier: request.identifier, attachments: uploads,
            trigger: request.trigger.flatMap(TriggerJSON.encode).flatMap(TriggerSpec.init(jsonText:)))
    }

    /// The `categories` request declaring `categories` for `app`.
    static func categories(_ categories: Set<UNNotificationCategory>, app: String) -> CategoriesOperation {
        CategoriesOperation(app: app, categories: CategoryJSON.encode(categories))
    }

    /// The pending requests of `app` in a `list` reply (with details), oldest first.
    static func requests(_ reply: ListReply, app: String) -> [UNNotificationRequest] {
        reply.notifications.filter { $0.state == .pending && belongs($0, to: app) }.map(request)
    }

    /// The delivered notifications of `app` in a `list` reply (with details), oldest first.
    static func notifications(_ reply: ListReply, app: String) -> [UNNotification] {
        reply.notifications.filter { $0.state == .delivered && belongs($0, to: app) }
            .map { UNNotification(request: request($0), date: $0.date) }
    }

    /// Whether the notification `summary` describes was sent by `app` (names matched as the
    /// server matches them).
    static func belongs(_ summary: NotificationSummary, to app: String) -> Bool {
        CenterAddress.appKey(summary.app) == CenterAddress.appKey(app)
    }

    /// The request a summary describes: its payload read back (else its title, subtitle and
    /// body) and, for a pending one, its trigger.
    private static func request(_ summary: NotificationSummary) -> UNNotificationRequest {
        let content: UNNotificationContent
        if let payload = summary.payload, let decoded = try? PayloadDecoder(sizeLimit: nil).decode(Array(payload.utf8)) {
            content = decoded.content
        } else {
            let fallback = UNMutableNotificationContent()
            fallback.title = summary.title ?? ""
            fallback.subtitle = summary.subtitle ?? ""
            fallback.body = summary.body ?? ""
            content = fallback.content
        }
        let trigger = summary.trigger.flatMap { try? TriggerJSON.decode($0.jsonText) }
        return UNNotificationRequest(identifier: summary.identifier, content: content, trigger: trigger)
    }
}
