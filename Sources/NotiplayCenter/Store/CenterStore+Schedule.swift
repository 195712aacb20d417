#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import GRDB

/// Scheduled requests firing, and the center's settings.
extension CenterStore {
    /// The pending request `identifier` fired, due at `dueAt`: delivered now, replacing a
    /// delivered notification with the same identifier. A repeating request (`next` given) stays
    /// pending with its next date, and its delivery is a copy of it (same payload, same
    /// attachment files); any other becomes the delivered notification itself.
    /// - Returns: The notification delivered, or `nil` when no pending request has that identifier.
    @discardableResult
    public func fire(_ identifier: String, dueAt: Date, next: Date?) throws(CenterStoreError) -> StoredNotification? {
        let time = now().storedValue
        return try write { db in
            guard
                let pending = try Int64.fetchOne(
                    db, sql: "SELECT sequence FROM notification WHERE identifier = ? AND state = 'pending'",
                    arguments: [identifier])
            else { return nil }
            let replaced = try Int64.fetchAll(
                db, sql: "SELECT sequence FROM notification WHERE identifier = ? AND state = 'delivered'",
                arguments: [identifier])
            for sequence in replaced {
                try db.execute(
                    sql: "UPDATE notification SET state = 'replaced', endedAt = ? WHERE sequence = ?",
                    arguments: [time, sequence])
            }
            let delivered: Int64
            if let next {
                try db.execute(
                    sql: """
                        INSERT INTO notification (identifier, app, payload, threadIdentifier, categoryIdentifier,
                            triggerJSON, sender, state, arrivedAt, deliveredAt, dueAt)
                        SELECT identifier, app, payload, threadIdentifier, categoryIdentifier, triggerJSON, sender,
                            'delivered', ?, ?, ?
                        FROM notification WHERE sequence = ?
                        """,
                    arguments: [time, time, dueAt.storedValue, pending])
                delivered = db.lastInsertedRowID
                try db.execute(
                    sql: """
                        INSERT INTO attachment (notification, position, name, kind, sha256, byteCount)
                        SELECT ?, position, name, kind, sha256, byteCount FROM attachment WHERE notification = ?
                        """,
                    arguments: [delivered, pending])
                try db.execute(
                    sql: "UPDATE notification SET nextDate = ? WHERE sequence = ?", arguments: [next.storedValue, pending])
            } else {
                delivered = pending
                try db.execute(
                    sql: """
                        UPDATE notification SET state = 'delivered', deliveredAt = ?, dueAt = ?, nextDate = NULL
                        WHERE sequence = ?
                        """,
                    arguments: [time, dueAt.storedValue, pending])
            }
            for sequence in replaced {
                try db.execute(
                    sql: "UPDATE notification SET replacedBy = ? WHERE sequence = ?", arguments: [delivered, sequence])
            }
            return try StoredNotification.fetchOne(db, sequence: delivered, file: databasePath)
        }
    }

    /// The setting `key`, if it was ever set.
    public func setting(_ key: String) throws(CenterStoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    /// Sets the setting `key` to `value`, durably.
    public func setSetting(_ key: String, to value: String) throws(CenterStoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        }
    }
}
