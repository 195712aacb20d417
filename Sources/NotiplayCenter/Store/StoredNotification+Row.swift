import Foundation
import GRDB

/// Reading notifications and their attachments out of the database.
///
/// Rows are read by column position from a fixed column list (no `Codable`, no name lookups):
/// `history` reads a hundred thousand of them.
extension StoredNotification {
    /// The `notification` columns ``init(row:file:)`` reads, in its order (the state as a
    /// number, `NULL` for one the schema does not know).
    static let columns = """
        sequence, identifier, app, payload, threadIdentifier, categoryIdentifier, triggerJSON, sender, \
        CASE state WHEN 'pending' THEN 0 WHEN 'delivered' THEN 1 WHEN 'dismissed' THEN 2 WHEN 'removed' THEN 3 \
        WHEN 'expired' THEN 4 WHEN 'replaced' THEN 5 END, \
        arrivedAt, deliveredAt, endedAt, response, replacedBy, nextDate, dueAt
        """

    /// The states by the numbers ``columns`` gives them.
    private static let statesByNumber: [State] = [.pending, .delivered, .dismissed, .removed, .expired, .replaced]

    /// The state in a row of ``columns``.
    /// - Throws: ``CenterStoreError/Kind/badData`` for a state the schema does not allow.
    static func state(in row: Row, file: String) throws(CenterStoreError) -> State {
        guard let number = row[8] as Int?, statesByNumber.indices.contains(number) else {
            throw CenterStoreError(.badData, file: file, "holds a notification in a state notiplay does not know")
        }
        return statesByNumber[number]
    }

    /// A notification without its attachments from a row of ``columns``.
    /// - Throws: ``CenterStoreError/Kind/badData`` for a state the schema does not allow.
    init(row: Row, file: String) throws(CenterStoreError) {
        self.init(
            sequence: row[0], identifier: row[1], app: row[2], payload: row[3], threadIdentifier: row[4],
            categoryIdentifier: row[5], trigger: row[6], state: try Self.state(in: row, file: file), sender: row[7],
            arrivedAt: Date(timeIntervalSince1970: row[9]),
            deliveredAt: (row[10] as Double?).map(Date.init(timeIntervalSince1970:)),
            endedAt: (row[11] as Double?).map(Date.init(timeIntervalSince1970:)),
            response: row[12], replacedBy: row[13],
            nextDate: (row[14] as Double?).map(Date.init(timeIntervalSince1970:)),
            dueAt: (row[15] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    /// The notifications `filter` selects (an SQL clause after `FROM notification`: `WHERE`,
    /// `ORDER BY`, `LIMIT`), in its order, with their attachments; two queries, however many rows.
    /// - Parameter expectedCount: How many rows to make room for at once.
    static func fetchAll(
        _ db: Database, _ filter: String, arguments: StatementArguments = [], expectedCount: Int = 0, file: String
    ) throws -> [StoredNotification] {
        var notifications: [StoredNotification] = []
        notifications.reserveCapacity(expectedCount)
        var lowest = Int64.max
        var highest = Int64.min
        let rows = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM notification \(filter)", arguments: arguments)
        while let row = try rows.next() {
            let notification = try StoredNotification(row: row, file: file)
            lowest = min(lowest, notification.sequence)
            highest = max(highest, notification.sequence)
            notifications.append(notification)
        }
        guard !notifications.isEmpty else { return [] }
        // One range scan of the attachments' primary key: probing it once per notification
        // costs far more when there are many.
        var attachments: [Int64: [StoredAttachment]] = [:]
        let attachmentRows = try Row.fetchCursor(
            db,
            sql: """
                SELECT notification, name, kind, sha256, byteCount FROM attachment
                WHERE notification BETWEEN ? AND ? ORDER BY notification, position
                """,
            arguments: [lowest, highest])
        while let row = try attachmentRows.next() {
            attachments[row[0], default: []].append(
                StoredAttachment(name: row[1], kind: row[2], sha256: row[3], byteCount: row[4]))
        }
        if !attachments.isEmpty {
            for index in notifications.indices {
                if let files = attachments[notifications[index].sequence] { notifications[index].attachments = files }
            }
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
