#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// Adding notifications: attachment files first, then rows, in one transaction.
extension CenterStore {
    /// Stores `notification` durably: its attachments' files first, then its row, in one
    /// transaction. As in Apple's center, a pending request with the same identifier is replaced
    /// (it becomes `removed`, with ``StoredNotification/replacedBy`` set), and so is a delivered
    /// one when this one is delivered now; a delivered one stays while this one is pending,
    /// until it fires.
    ///
    /// When it throws, nothing was stored: no row is committed and no file this call made is
    /// left (content that was stored already stays).
    /// - Returns: The notification as stored.
    /// - Throws: ``CenterStoreError``: ``CenterStoreError/Kind/badData`` when the payload is not a
    ///   JSON object or the trigger not JSON; ``CenterStoreError/Kind/ioError`` when the disk is
    ///   full or a write fails; ``CenterStoreError/Kind/cannotCreate`` when a file cannot be made.
    @discardableResult
    public func add(_ notification: IncomingNotification) throws(CenterStoreError) -> StoredNotification {
        try add(contentsOf: [notification])[0]
    }

    /// Stores `notifications` in order, in one transaction: all of them or none. Used to fill a
    /// store quickly (benchmarks); ``add(_:)`` is the operation of the center.
    @discardableResult
    package func add(contentsOf notifications: [IncomingNotification]) throws(CenterStoreError) -> [StoredNotification] {
        for notification in notifications {
            try checkJSON(notification.payload, objectOnly: true, "the payload of \"\(notification.identifier)\"")
            if let trigger = notification.trigger {
                try checkJSON(trigger, objectOnly: false, "the trigger of \"\(notification.identifier)\"")
            }
        }
        // The date as the database will give it back (a `Date` keeps seconds since 2001: going
        // through seconds since 1970 once can round its last bit), so what `add` returns equals
        // what is read later.
        let time = Date(timeIntervalSince1970: now().storedValue)
        var written: [AttachmentFolder.Written] = []
        return try write(undo: { written.forEach(attachments.discard) }) { db in
            var stored: [StoredNotification] = []
            stored.reserveCapacity(notifications.count)
            for notification in notifications {
                let files = try attachments.write(notification.attachments)
                written.append(files)
                stored.append(try Self.insert(notification, digests: files.digests, at: time, db))
            }
            return stored
        }
    }

    /// Inserts `notification`, whose attachments' files are stored under `digests`, ending the
    /// live one with the same identifier.
    private static func insert(
        _ notification: IncomingNotification, digests: [String], at time: Date, _ db: Database
    ) throws -> StoredNotification {
        let state: StoredNotification.State = notification.delivery == .pending ? .pending : .delivered
        let replacedStates = state == .pending ? "('pending')" : "('pending', 'delivered')"
        let replacedRows = try Int64.fetchAll(
            db, sql: "SELECT sequence FROM notification WHERE identifier = ? AND state IN \(replacedStates)",
            arguments: [notification.identifier])
        for sequence in replacedRows {
            try db.execute(
                sql: "UPDATE notification SET state = 'replaced', endedAt = ?, nextDate = NULL WHERE sequence = ?",
                arguments: [time.storedValue, sequence])
        }
        let nextDate = state == .pending ? notification.nextDate?.storedValue : nil
        try db.execute(
            sql: """
                INSERT INTO notification (identifier, app, payload, threadIdentifier, categoryIdentifier,
                    triggerJSON, sender, state, arrivedAt, deliveredAt, nextDate)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                notification.identifier, notification.app, notification.payload, notification.threadIdentifier,
                notification.categoryIdentifier, notification.trigger, notification.sender, state.rawValue,
                time.storedValue, state == .delivered ? time.storedValue : nil, nextDate,
            ])
        let sequence = db.lastInsertedRowID
        var attachments: [StoredAttachment] = []
        for (position, (attachment, digest)) in zip(notification.attachments, digests).enumerated() {
            let record = StoredAttachment(
                name: attachment.name, kind: attachment.kind, sha256: digest, byteCount: attachment.bytes.count)
            try db.execute(
                sql: "INSERT INTO attachment (notification, position, name, kind, sha256, byteCount) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [sequence, position, record.name, record.kind, record.sha256, record.byteCount])
            attachments.append(record)
        }
        for replaced in replacedRows {
            try db.execute(sql: "UPDATE notification SET replacedBy = ? WHERE sequence = ?", arguments: [sequence, replaced])
        }
        return StoredNotification(
            sequence: sequence, identifier: notification.identifier, app: notification.app,
            payload: notification.payload, threadIdentifier: notification.threadIdentifier,
            categoryIdentifier: notification.categoryIdentifier, trigger: notification.trigger,
            attachments: attachments, state: state, sender: notification.sender, arrivedAt: time,
            deliveredAt: state == .delivered ? time : nil,
            nextDate: nextDate.map(Date.init(timeIntervalSince1970:)))
    }
}
