import GRDB
import NotiplayCore

/// Content extensions that crashed while presenting a notification (`crashed_extension`): the
/// center shows such a notification with the default card, after a restart too.
extension CenterStore {
    /// Remembers that extension `name` crashed while presenting the delivered notification
    /// `identifier`.
    /// - Returns: Whether a delivered notification has that identifier.
    @discardableResult
    package func markCrashed(_ identifier: String, extension name: String) throws(CenterStoreError) -> Bool {
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO crashed_extension (notification, extension)
                    SELECT sequence, ? FROM notification WHERE identifier = ? AND state = 'delivered'
                    """,
                arguments: [name, identifier])
            return db.changesCount > 0
        }
    }

    /// The delivered notifications an extension crashed on: the extension's name by identifier.
    package func crashedExtensions() throws(CenterStoreError) -> [String: String] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT notification.identifier, crashed_extension.extension FROM crashed_extension
                    JOIN notification ON notification.sequence = crashed_extension.notification
                    WHERE notification.state = 'delivered'
                    """)
            var found: [String: String] = [:]
            for row in rows {
                let identifier: String = row[0]
                let name: String = row[1]
                found[identifier] = name
            }
            return found
        }
    }
}
