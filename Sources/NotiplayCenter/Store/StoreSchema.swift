import GRDB

/// The database's schema, as named migrations: a store written by an older notiplay is brought
/// up to date on open; a later version adds steps after these and never edits them.
///
/// See ``CenterStore`` for what the tables hold.
enum StoreSchema {
    /// The first schema: notifications and their attachments.
    static let version1 = "v1: notifications and attachments"

    /// Every migration, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(version1) { db in
            try db.execute(
                sql: """
                    CREATE TABLE notification (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                        identifier TEXT NOT NULL,
                        app TEXT NOT NULL,
                        payload TEXT NOT NULL,
                        threadIdentifier TEXT,
                        categoryIdentifier TEXT,
                        triggerJSON TEXT,
                        sender TEXT,
                        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dismissed', 'removed')),
                        arrivedAt REAL NOT NULL,
                        deliveredAt REAL,
                        endedAt REAL,
                        response TEXT,
                        replacedBy INTEGER REFERENCES notification(sequence) ON DELETE SET NULL,
                        CHECK ((state IN ('pending', 'delivered')) = (endedAt IS NULL))
                    );
                    CREATE UNIQUE INDEX notification_live_identifier
                        ON notification(identifier) WHERE state IN ('pending', 'delivered');
                    CREATE INDEX notification_identifier ON notification(identifier, sequence);
                    CREATE INDEX notification_state ON notification(state, sequence);
                    CREATE INDEX notification_ended
                        ON notification(endedAt, sequence) WHERE state IN ('dismissed', 'removed');
                    CREATE INDEX notification_replaced_by ON notification(replacedBy) WHERE replacedBy IS NOT NULL;
                    CREATE TABLE attachment (
                        notification INTEGER NOT NULL REFERENCES notification(sequence) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                        byteCount INTEGER NOT NULL CHECK (byteCount >= 0),
                        PRIMARY KEY (notification, position)
                    ) WITHOUT ROWID;
                    CREATE INDEX attachment_sha256 ON attachment(sha256);
                    """)
        }
        return migrator
    }
}
