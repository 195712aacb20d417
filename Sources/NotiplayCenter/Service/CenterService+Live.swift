#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NotiplayCore
import Notiplay

/// A live notification, decoded once: when it arrives or is restored, never again while it lives.
struct LiveNotification {
    /// The notification on its way to its card (`nil`: its payload could not be decoded).
    var delivery: NotificationDelivery?
    /// What its card needs beyond its payload.
    var traits: NotificationTraits
    /// When it leaves the screen (center time), if it does.
    var expires: Date?
    /// Warnings about it the card shows, dim (its sound cannot play, and why).
    var notes: [String] = []
    /// The stored notification as a presenter process is handed it.
    var wire: WireNotification?
    /// The content extension that crashed while presenting it: it is shown with the default
    /// card from then on, never by that extension again.
    var crashedExtension: String?

    /// The notification as the runtime presents it.
    var notification: UNNotification? { delivery?.notification }
}

extension CenterService {
    /// Reports a doubt about notification `identifier` that did not stop it (`key`: what it is
    /// about); one about its sound is shown on its card too, dim.
    package func warn(_ identifier: String, key: String?, message: String) {
        if let key, key.contains("sound") { noteOnCard(identifier, message) }
        emit(.warning(identifier: identifier, key: key, message: message))
    }

    /// Keeps `message` to show, dim, on the card of `identifier` (while it lives).
    func noteOnCard(_ identifier: String, _ message: String) {
        if live[identifier] != nil {
            live[identifier]?.notes.append(message)
        } else {
            pendingNotes[identifier, default: []].append(message)
        }
        if deck.shown?.identifiers.contains(identifier) == true { onDeckChange?() }
    }

    /// Decodes `stored` once (or takes `payload`, decoded already when it was received), asks its
    /// traits (unless `given`), applies the configuration's rules to them (the one place they
    /// apply: a reload changes what arrives next, never a live card), and keeps both while it lives.
    @discardableResult
    func remember(_ stored: StoredNotification, payload: APNsPayload? = nil, traits given: NotificationTraits? = nil) -> UNNotification? {
        let delivery = delivery(of: stored, payload: payload)
        let notification = delivery?.notification
        var traits = given ?? NotificationTraits()
        if given == nil, let notification {
            for source in traitSources {
                if let found = source.traits(of: notification, app: stored.app) {
                    traits = found
                    break
                }
            }
        }
        if let notification { traits = applyingRules(to: traits, of: notification, app: stored.app) }
        let delivered = stored.deliveredAt ?? stored.arrivedAt
        let expires = traits.lifetime.map {
            delivered.addingTimeInterval(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)
        }
        live[stored.identifier] = LiveNotification(
            delivery: delivery, traits: traits, expires: expires, notes: pendingNotes.removeValue(forKey: stored.identifier) ?? [],
            wire: WireNotification(
                identifier: stored.identifier, payload: stored.payload, date: delivered.timeIntervalSince1970,
                attachments: stored.attachments.map { [store.attachmentPath(for: $0), $0.name] }))
        return notification
    }

    /// The stored notification on its way to its card: its payload decoded (unless `payload` is
    /// given), its stored attachment files attached (those that are no longer valid left out).
    private func delivery(of stored: StoredNotification, payload: APNsPayload?) -> NotificationDelivery? {
        let date = stored.deliveredAt ?? stored.arrivedAt
        let files = stored.attachments.map { (path: store.attachmentPath(for: $0), identifier: $0.name) }
        guard let payload else {
            return try? NotificationDelivery(
                bytes: Array(stored.payload.utf8), sizeLimit: nil, identifier: stored.identifier, date: date,
                attachments: .stored(files))
        }
        let validator = AttachmentValidator()
        let attachments = files.compactMap { try? validator.validate($0.path, identifier: $0.identifier) }
        return NotificationDelivery(payload: payload, identifier: stored.identifier, date: date, attachments: attachments)
    }
}
