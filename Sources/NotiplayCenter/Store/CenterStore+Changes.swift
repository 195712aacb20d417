import GRDB
import NotiplayCore

/// Moving notifications through their lives. Each call is one transaction and returns what it
/// changed.
extension CenterStore {
    /// Delivers the pending notification `identifier` (its trigger fired).
    /// - Returns: The notification now delivered, or `nil` when no pending one has that identifier.
    @discardableResult
    public func markDelivered(_ identifier: String) throws(CenterStoreError) -> StoredNotification? {
        let time = now().storedValue
        return try write { db in
            try change(db, "WHERE identifier = ? AND state = 'pending'", [identifier]) {
                try db.execute(
                    sql: "UPDATE notification SET state = 'delivered', deliveredAt = ? WHERE sequence = ?",
                    arguments: [time, $0])
            }.first
        }
    }

    /// Dismisses the delivered notification `identifier`; it stays in the history.
    /// - Parameters:
    ///   - identifier: The request's identifier.
    ///   - response: The response that dismissed it, as JSON text, if one did (kept with it).
    /// - Returns: The notification now dismissed, or `nil` when no delivered one has that identifier.
    /// - Throws: ``CenterStoreError/Kind/badData`` when `response` is not JSON, and the errors of a write.
    @discardableResult
    public func markDismissed(_ identifier: String, response: String? = nil) throws(CenterStoreError) -> StoredNotification? {
        if let response { try checkJSON(response, objectOnly: false, "the response to \"\(identifier)\"") }
        let time = now().storedValue
        return try write { db in
            try change(db, "WHERE identifier = ? AND state = 'delivered'", [identifier]) {
                try db.execute(
                    sql: """
                        UPDATE notification SET state = 'dismissed', endedAt = ?, response = coalesce(?, response)
                        WHERE sequence = ?
                        """,
                    arguments: [time, response, $0])
            }.first
        }
    }

    /// Records the user's response to the notification `identifier`: the newest one with that
    /// identifier that was delivered (whether it is still delivered or was dismissed since).
    /// A later response replaces an earlier one.
    /// - Returns: The notification with its response, or `nil` when none with that identifier
    ///   was delivered.
    /// - Throws: ``CenterStoreError/Kind/badData`` when `json` is not JSON, and the errors of a write.
    @discardableResult
    public func recordResponse(_ identifier: String, json: String) throws(CenterStoreError) -> StoredNotification? {
        try checkJSON(json, objectOnly: false, "the response to \"\(identifier)\"")
        return try write { db in
            let filter = "WHERE identifier = ? AND state IN ('delivered', 'dismissed') ORDER BY sequence DESC LIMIT 1"
            return try change(db, filter, [identifier]) {
                try db.execute(sql: "UPDATE notification SET response = ? WHERE sequence = ?", arguments: [json, $0])
            }.first
        }
    }

    /// Removes the live notifications in `states` (pending or delivered, or both) with these
    /// identifiers; they stay in the history as `removed` (or `expired`: `ending`). Identifiers with no such notification
    /// are ignored.
    /// - Returns: The notifications removed, oldest first.
    @discardableResult
    public func remove(
        identifiers: [String], states: Set<StoredNotification.State> = [.pending, .delivered],
        ending: StoredNotification.EndedState = .removed
    ) throws(CenterStoreError) -> [StoredNotification] {
        let live = StoredNotification.State.allCases.filter { $0.isLive && states.contains($0) }
        guard !live.isEmpty else { return [] }
        let list = live.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        let time = now().storedValue
        return try write { db in
            var removed: [StoredNotification] = []
            for identifier in Set(identifiers) {
                removed += try change(db, "WHERE identifier = ? AND state IN (\(list))", [identifier]) {
                    try Self.end(db, $0, as: ending.state, at: time)
                }
            }
            return removed.sorted { $0.sequence < $1.sequence }
        }
    }

    /// Removes every live notification in `states`; they stay in the history as `removed`.
    /// Ended states (dismissed, removed) in `states` change nothing: the history is trimmed by
    /// ``prune(keepingHistory:olderThan:)``.
    /// - Returns: The notifications removed, oldest first.
    @discardableResult
    public func removeAll(states: Set<StoredNotification.State> = [.pending, .delivered]) throws(CenterStoreError)
        -> [StoredNotification]
    {
        let live = StoredNotification.State.allCases.filter { $0.isLive && states.contains($0) }
        guard !live.isEmpty else { return [] }
        let list = live.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        let time = now().storedValue
        return try write { db in
            try change(db, "WHERE state IN (\(list)) ORDER BY sequence", []) {
                try Self.end(db, $0, as: .removed, at: time)
            }
        }
    }

    /// Runs `update` on each notification `filter` selects (by its `sequence`) and returns them
    /// as they are after.
    private func change(
        _ db: Database, _ filter: String, _ arguments: StatementArguments, _ update: (Int64) throws -> Void
    ) throws -> [StoredNotification] {
        let sequences = try Int64.fetchAll(db, sql: "SELECT sequence FROM notification \(filter)", arguments: arguments)
        var changed: [StoredNotification] = []
        for sequence in sequences {
            try update(sequence)
            if let notification = try StoredNotification.fetchOne(db, sequence: sequence, file: databasePath) {
                changed.append(notification)
            }
        }
        return changed
    }

    /// Ends the notification `sequence` in `state` at `time`.
    private static func end(_ db: Database, _ sequence: Int64, as state: StoredNotification.State, at time: Double) throws {
        try db.execute(
            sql: "UPDATE notification SET state = ?, endedAt = ?, nextDate = NULL WHERE sequence = ?",
            arguments: [state.rawValue, time, sequence])
    }

    /// Throws ``CenterStoreError/Kind/badData`` unless `text` is JSON (an object, if `objectOnly`).
    func checkJSON(_ text: String, objectOnly: Bool, _ what: String) throws(CenterStoreError) {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(text)
        } catch {
            throw CenterStoreError(.badData, file: databasePath, "cannot store \(what): it is not JSON (\(error))")
        }
        if objectOnly && value.objectValue == nil {
            throw CenterStoreError(.badData, file: databasePath, "cannot store \(what): it is not a JSON object")
        }
    }
}
