#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NotiplayCenter
import NotiplayCore
import NotiplayFreedesktop

/// How freedesktop notifications end (expiry, closing) and come back after a restart.
extension FreedesktopBridge {
    /// The store's key for the ids handed out: a restarted server goes on after them, so an id
    /// (and the center's identifier made of it) names one notification only.
    static let reservedIDSetting = "freedesktop-reserved-id"
    /// How many ids are reserved at a time (one store write per this many `Notify` calls).
    static let idBlock: UInt32 = 100

    /// Knows again the freedesktop notifications the center holds as delivered (after a
    /// restart): their extras, their buttons, their expiry; and goes on with ids after the last
    /// one handed out. Call it after the center's `restore()`.
    package func restore() {
        let stored = (try? service.store.delivered()) ?? []
        var live: [UInt32] = []
        for notification in stored {
            guard let id = FreedesktopIDs.id(fromIdentifier: notification.identifier),
                let payload = try? JSONParser.parse(Array(notification.payload.utf8)).objectValue,
                let restored = FreedesktopExtras(payload: payload), restored.id == id
            else { continue }
            live.append(id)
            extras[id] = restored
            if restored.transient { transient.insert(notification.identifier) }
            // Under the category it was stored with (its app's, for an app by desktop-entry).
            let identifier = payload["aps"]?.objectValue?["category"]?.stringValue ?? FreedesktopIDs.categoryIdentifier(for: id)
            if let category = restored.actions.category(identifier: identifier) {
                _ = try? service.setCategories(CategoryJSON.encode([category]), for: notification.app)
            }
            if let timeout = restored.expireTimeout {
                let elapsed = service.time.now.timeIntervalSince(notification.deliveredAt ?? notification.arrivedAt)
                armExpiry(id, after: .milliseconds(max(0, Int64(timeout) - Int64(elapsed * 1000))))
            }
        }
        let reserved = (try? service.store.setting(Self.reservedIDSetting)).flatMap { $0.flatMap(UInt32.init) } ?? 0
        reservedID = reserved
        ids = FreedesktopIDs(live: live, next: max(reserved, live.max() ?? 0) &+ 1)
    }

    /// Records in the store that ids up to past `id` are handed out, a block at a time.
    func reserve(_ id: UInt32) {
        guard id > reservedID || reservedID &- id > UInt32.max / 2 else { return }
        let block = id &+ Self.idBlock
        reservedID = block
        try? service.store.setSetting(Self.reservedIDSetting, to: String(block))
    }

    /// Closes notification `id` with reason 1 once `duration` has passed (`nil`: never),
    /// replacing any expiry it had.
    func armExpiry(_ id: UInt32, after duration: Duration?) {
        expiries.removeValue(forKey: id)?.cancel()
        guard let duration else { return }
        expiries[id] = Task { [weak self] in
            try? await Task.sleep(for: duration)
            guard !Task.isCancelled else { return }
            self?.expire(id)
        }
    }

    private func expire(_ id: UInt32) {
        expiries[id] = nil
        guard extras[id] != nil else { return }
        closing[id] = .expired
        let removed = (try? service.remove(identifiers: [FreedesktopIDs.identifier(for: id)], states: [.delivered])) ?? []
        // Not in the center (a service extension still had it): closed all the same.
        if removed.isEmpty, extras[id] != nil { emit(.notificationClosed(id: id, reason: closing.removeValue(forKey: id) ?? .expired)) }
    }

    /// Notification `id` is closed: forgotten, its id free again.
    func ended(_ id: UInt32) {
        extras[id] = nil
        closing[id] = nil
        expiries.removeValue(forKey: id)?.cancel()
        ids.release(id)
    }

    /// A token for the spec 1.2 `ActivationToken` signal. A terminal has no compositor to ask
    /// for an XDG activation token; this one is unique, so a client that waits for the signal
    /// before it acts goes on, and a compositor shown it refuses it as unknown, which only
    /// means no focus change.
    static func activationToken(for id: UInt32) -> String {
        "notiplay-\(id)-\(UInt64.random(in: 0...UInt64.max))"
    }
}
