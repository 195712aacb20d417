#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import NotiplayCenter
package import NotiplayCore
import NotiplayFreedesktop

/// How freedesktop notifications end (expiry, closing) and come back after a restart.
extension FreedesktopBridge {
    /// The store's key for the ids handed out: a restarted server goes on after them, so an id
    /// (and the center's identifier made of it) names one notification only.
    static let reservedIDSetting = "freedesktop-reserved-id"
    /// How many ids are reserved at a time (one store write per this many `Notify` calls).
    static let idBlock: UInt32 = 100

    /// Goes on with ids after the last one handed out before a restart. Call it after the
    /// center's `restore()`, which told the bridge of every live freedesktop notification
    /// (through ``traits(of:app:)``).
    package func restore() {
        let reserved = service.setting(Self.reservedIDSetting).flatMap(UInt32.init) ?? 0
        reservedID = reserved
        ids = FreedesktopIDs(live: Array(extras.keys), next: max(reserved, extras.keys.max() ?? 0) &+ 1)
    }

    /// Records in the store that ids up to past `id` are handed out, a block at a time.
    func reserve(_ id: UInt32) {
        guard id > reservedID || reservedID &- id > UInt32.max / 2 else { return }
        let block = id &+ Self.idBlock
        reservedID = block
        service.setSetting(Self.reservedIDSetting, to: String(block))
    }

    /// A token for the spec 1.2 `ActivationToken` signal. A terminal has no compositor to ask
    /// for an XDG activation token; this one is unique, so a client that waits for the signal
    /// before it acts goes on, and a compositor shown it refuses it as unknown, which only
    /// means no focus change.
    static func activationToken(for id: UInt32) -> String {
        "notiplay-\(id)-\(UInt64.random(in: 0...UInt64.max))"
    }
}

/// What a freedesktop notification's card needs beyond its payload, from the payload's
/// `freedesktop` object: given with it on arrival, read back from its payload after a restart.
extension FreedesktopBridge: NotificationTraitSource {
    package func traits(of notification: UNNotification, app: String) -> NotificationTraits? {
        let content = notification.request.content
        guard let found = FreedesktopExtras(payload: content.jsonUserInfo),
            FreedesktopIDs.id(fromIdentifier: notification.request.identifier) == found.id
        else { return nil }
        extras[found.id] = found
        let identifier = content.categoryIdentifier.isEmpty ? FreedesktopIDs.categoryIdentifier(for: found.id) : content.categoryIdentifier
        return Self.traits(of: found, category: found.actions.category(identifier: identifier))
    }

    /// The traits of a notification with `extras`, its buttons under `category`.
    static func traits(of extras: FreedesktopExtras, category: UNNotificationCategory?) -> NotificationTraits {
        NotificationTraits(
            category: category, startsMedia: extras.sound != nil,
            lifetime: extras.expireTimeout.map { .milliseconds(Int64($0)) }, transient: extras.transient,
            defaultAction: extras.actions.defaultActionLabel.map { $0.isEmpty ? "open" : $0 }, sender: extras.app,
            ruleCategory: extras.category ?? "")
    }
}
