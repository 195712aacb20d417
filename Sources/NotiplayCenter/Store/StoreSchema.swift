import GRDB

/// The database's schema, as named migrations: a store written by an older notiplay is brought
/// up to date on open; a later version adds steps after these and never edits them.
///
/// See ``CenterStore`` for what the tables hold.
enum StoreSchema {
    /// The first schema: notifications and their attachments.
    static let version1 = "v1: notifications and attachments"
    /// Scheduling: when a pending request fires next, when a delivered one was due (late when
    /// the server was down then), and settings (Focus). A repeating request stays pending while
    /// its deliveries, under the same identifier, are delivered: one live identifier per state.
    static let version2 = "v2: schedule and settings"

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
        migrator.registerMigration(version2) { db in
            try db.execute(
                sql: """
                    ALTER TABLE notification ADD COLUMN nextDate REAL;
                    ALTER TABLE notification ADD COLUMN dueAt REAL;
                    DROP INDEX notification_live_identifier;
                    CREATE UNIQUE INDEX notification_pending_identifier ON notification(identifier) WHERE state = 'pending';
                    CREATE UNIQUE INDEX notification_delivered_identifier ON notification(identifier) WHERE state = 'delivered';
                    CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                    """)
        }
        return migrator
    }
}
