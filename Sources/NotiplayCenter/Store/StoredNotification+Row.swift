import Foundation
import GRDB

/// Reading notifications and their attachments out of the database.
///
/// Rows are read by column position from fixed column lists (no `Codable`, no name lookups):
/// `history` reads a hundred thousand of them.
extension StoredNotification {
    /// The `notification` columns ``init(row:attachments:)`` reads, in its order.
    static let columns = """
        sequence, identifier, app, payload, threadIdentifier, categoryIdentifier, triggerJSON, sender, state, \
        arrivedAt, deliveredAt, endedAt, response, replacedBy
        """

    /// A notification from a row of ``columns``.
    /// - Throws: ``CenterStoreError/Kind/badData`` for a state the schema does not allow.
    init(row: Row, attachments: [StoredAttachment], file: String) throws(CenterStoreError) {
        let stateText: String = row[8]
        guard let state = State(rawValue: stateText) else {
            throw CenterStoreError(.badData, file: file, "holds a notification in an unknown state \"\(stateText)\"")
        }
        self.init(
            sequence: row[0], identifier: row[1], app: row[2], payload: row[3], threadIdentifier: row[4],
            categoryIdentifier: row[5], trigger: row[6], attachments: attachments, state: state, sender: row[7],
            arrivedAt: Date(timeIntervalSince1970: row[9]),
            deliveredAt: (row[10] as Double?).map(Date.init(timeIntervalSince1970:)),
            endedAt: (row[11] as Double?).map(Date.init(timeIntervalSince1970:)),
            response: row[12], replacedBy: row[13])
    }

    /// The notifications `filter` selects (an SQL clause after `FROM notification`: `WHERE`,
    /// `ORDER BY`, `LIMIT`), in its order, with their attachments; two queries, however many rows.
    static func fetchAll(
        _ db: Database, _ filter: String, arguments: StatementArguments = [], file: String
    ) throws -> [StoredNotification] {
        var attachments: [Int64: [StoredAttachment]] = [:]
        let attachmentRows = try Row.fetchCursor(
            db,
            sql: """
                SELECT notification, name, kind, sha256, byteCount FROM attachment
                WHERE notification IN (SELECT sequence FROM notification \(filter))
                ORDER BY notification, position
                """,
            arguments: arguments)
        while let row = try attachmentRows.next() {
            attachments[row[0], default: []].append(
                StoredAttachment(name: row[1], kind: row[2], sha256: row[3], byteCount: row[4]))
        }
        var notifications: [StoredNotification] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM notification \(filter)", arguments: arguments)
        while let row = try rows.next() {
            let sequence: Int64 = row[0]
            notifications.append(try StoredNotification(row: row, attachments: attachments[sequence] ?? [], file: file))
        }
        return notifications
    }

    /// The notification numbered `sequence`, if there is one.
    static func fetchOne(_ db: Database, sequence: Int64, file: String) throws -> StoredNotification? {
        try fetchAll(db, "WHERE sequence = ?", arguments: [sequence], file: file).first
    }
}

extension Date {
    /// The date as the database keeps it: seconds since 1970-01-01 UTC, a `REAL`.
    var storedValue: Double { timeIntervalSince1970 }
}
