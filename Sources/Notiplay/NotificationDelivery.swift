import NotiplayCore
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// One notification on its way to a card: its payload decoded once, the notification it makes
/// (its attachments included), and what the service extension stage and the presentation need.
///
/// A host composes the steps — decode, the service extension stage, present:
///
/// ```swift
/// let arrived = try NotificationDelivery(
///     file: path, sizeLimit: PayloadDecoder.apnsLimit, date: .now, attachments: .files(paths))
/// let delivery = await arrived.runningServiceStage(
///     registry: registry, types: types, log: log, configuration: service, reportingSkip: true)
/// try delivery.present(in: session)
/// ```
///
/// `notiplay deliver` and `NotificationTestHost` deliver so; a center can keep the value for a
/// card's whole life, so that a stored payload is parsed once per arrival. The runtime's own
/// type: extension authors never see it.
package struct NotificationDelivery: Sendable {
    /// The payload as it was decoded, before any service extension changed the content.
    package let payload: APNsPayload
    /// The notification to present: the payload's content with its attachments, as the service
    /// extension stage left it.
    package private(set) var notification: UNNotification
    /// The payload file this delivery was read from; `nil` for a payload given as bytes.
    package let payloadFile: String?

    /// Whether the payload had `mutable-content: 1`.
    package var mutableContent: Bool { payload.mutableContent }

    /// A delivery of `payload`, decoded already, as the notification `identifier` delivered at
    /// `date` with `attachments`.
    package init(
        payload: APNsPayload, identifier: String, date: Date, attachments: [UNNotificationAttachment] = [],
        payloadFile: String? = nil
    ) {
        self.payload = payload
        self.payloadFile = payloadFile
        let content = UNMutableNotificationContent(payload.content)
        content.attachments += attachments
        let request = UNNotificationRequest(identifier: identifier, content: content, trigger: UNPushNotificationTrigger())
        notification = UNNotification(request: request, date: date)
    }

    /// Decodes the payload `bytes` (at most `sizeLimit` bytes without their whitespace; `nil` for
    /// no limit), for a host that stores a notification before it delivers it (the center checks
    /// what `send` hands it so, and hands the payload to ``init(payload:identifier:date:attachments:payloadFile:)``
    /// when it arrives: decoded once).
    package static func decode(_ bytes: [UInt8], sizeLimit: Int?) throws(PayloadError) -> APNsPayload {
        try PayloadDecoder(sizeLimit: sizeLimit).decode(bytes)
    }

    /// Decodes the payload `bytes` (at most `sizeLimit` bytes without their whitespace; `nil` for
    /// no limit) into the notification `identifier` delivered at `date`, then takes `attachments`.
    /// - Throws: ``Failure/payload(_:)`` for a payload that is not valid, then
    ///   ``Failure/attachment(_:)`` for the first attachment file refused.
    package init(
        bytes: [UInt8], sizeLimit: Int?, identifier: String, date: Date, attachments: Attachments = .validated([])
    ) throws(Failure) {
        let payload: APNsPayload
        do { payload = try Self.decode(bytes, sizeLimit: sizeLimit) } catch { throw .payload(error) }
        self.init(payload: payload, identifier: identifier, date: date, attachments: try attachments.validated())
    }

    /// Reads and decodes the payload file at `path` (at most `sizeLimit` bytes without their
    /// whitespace: `PayloadDecoder.apnsLimit`, or `nil` for no limit) into the notification
    /// `identifier` (by default the file's name without its extension, as `deliver` names it)
    /// delivered at `date`, then takes `attachments`.
    /// - Throws: ``Failure/payloadFile(_:)`` for a file that is missing, unreadable or not a valid
    ///   payload, then ``Failure/attachment(_:)`` for the first attachment file refused.
    package init(
        file path: String, sizeLimit: Int?, identifier: String? = nil, date: Date,
        attachments: Attachments = .validated([])
    ) throws(Failure) {
        let payload: APNsPayload
        do { payload = try PayloadDecoder(sizeLimit: sizeLimit).decodeFile(path) } catch { throw .payloadFile(error) }
        self.init(
            payload: payload, identifier: identifier ?? Path.stem(path), date: date,
            attachments: try attachments.validated(), payloadFile: path)
    }

    /// Whether a service extension runs for this notification in an app with `registry`: the
    /// payload asks for one (`mutable-content: 1` and alert text), and the app has a service
    /// extension or the payload carries a `media-url` for ``MediaAttachmentService``.
    package func wantsServiceExtension(in registry: ExtensionRegistry) -> Bool {
        payload.wantsServiceExtension
            && (registry.serviceExtension != nil
                || payload.content.jsonUserInfo[MediaAttachmentService.payloadKey] != nil)
    }

    /// Whether the service extension stage has something to record for this notification in an
    /// app with `registry`: an extension runs (``wantsServiceExtension(in:)``), or the app has a
    /// service extension the payload is not eligible for (a `service` event says it was skipped,
    /// and why).
    package func concernsServiceStage(in registry: ExtensionRegistry) -> Bool {
        registry.serviceExtension != nil || wantsServiceExtension(in: registry)
    }

    /// The same delivery with its notification dated `date`: for a host that dates a notification
    /// when it is presented, after the service extension stage, rather than when it was decoded.
    package func dated(_ date: Date) -> NotificationDelivery {
        var dated = self
        dated.notification = UNNotification(request: notification.request, date: date)
        return dated
    }

    /// The same delivery presenting `request` (the service extension stage's), on the same date.
    func presenting(_ request: UNNotificationRequest) -> NotificationDelivery {
        var changed = self
        changed.notification = UNNotification(request: request, date: notification.date)
        return changed
    }
}
