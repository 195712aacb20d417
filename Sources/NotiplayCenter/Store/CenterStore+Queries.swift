#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import GRDB

/// Reading the store. Each call reads one consistent snapshot, beside any write in progress.
extension CenterStore {
    /// The pending notifications, in the order they arrived.
    public func pending() throws(CenterStoreError) -> [StoredNotification] {
        try fetch("WHERE state = 'pending' ORDER BY sequence")
    }

    /// The delivered notifications (not dismissed or removed), oldest delivery first.
    public func delivered() throws(CenterStoreError) -> [StoredNotification] {
        try fetch("WHERE state = 'delivered' ORDER BY deliveredAt, sequence")
    }

    /// The notification with this identifier: the live one if there is one, else the newest in
    /// the history; `nil` if the store has none.
    public func notification(_ identifier: String) throws(CenterStoreError) -> StoredNotification? {
        try fetch("WHERE identifier = ? ORDER BY sequence DESC LIMIT 1", [identifier]).first
    }

    /// The notification numbered `sequence`, if the store still has it.
    public func notification(sequence: Int64) throws(CenterStoreError) -> StoredNotification? {
        try fetch("WHERE sequence = ?", [sequence]).first
    }

    /// Every notification, live or ended, newest first: at most `limit` of them.
    public func history(limit: Int) throws(CenterStoreError) -> [StoredNotification] {
        let limit = max(0, limit)
        let file = databasePath
        return try read { db in
            // Room for every row at once (at most one per sequence number still in the table):
            // growing an array of a hundred thousand copies it all several times.
            let span = try Int.fetchOne(
                db, sql: "SELECT (SELECT max(sequence) FROM notification) - (SELECT min(sequence) FROM notification) + 1")
            return try StoredNotification.fetchAll(
                db, "ORDER BY sequence DESC LIMIT ?", arguments: [limit], expectedCount: min(limit, span ?? 0), file: file)
        }
    }

    /// The path of the file holding an attachment's content (`attachments/SHA256` in the store's
    /// folder). The file is there while a notification in the store refers to it.
    public func attachmentPath(for attachment: StoredAttachment) -> String {
        attachments.path(forDigest: attachment.sha256)
    }

    /// ``attachmentPath(for:)`` as a `file://` URL.
    public func attachmentURL(for attachment: StoredAttachment) -> URL {
        URL(fileURLWithPath: attachmentPath(for: attachment))
    }

    /// The notifications `filter` selects, with their attachments, from one snapshot.
    private func fetch(_ filter: String, _ arguments: StatementArguments = []) throws(CenterStoreError)
        -> [StoredNotification]
    {
        let file = databasePath
        return try read { db in try StoredNotification.fetchAll(db, filter, arguments: arguments, file: file) }
    }
}
