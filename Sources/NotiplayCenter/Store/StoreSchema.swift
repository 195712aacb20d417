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

    /// States of their own for notifications that expired or were replaced (they were `removed`
    /// before; a removed one with `replacedBy` becomes `replaced`).
    static let version3 = "v3: expired and replaced states"

    /// Which content extension crashed while presenting a notification: its card is shown with
    /// the default card from then on, after a restart too (no crash loop).
    static let version4 = "v4: crashed extensions"

    /// The ended states, as an SQL list.
    static let endedStates = "('dismissed', 'removed', 'expired', 'replaced')"

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
        migrator.registerMigration(version3) { db in
            // SQLite cannot change a CHECK constraint: the table is made anew and the rows copied
            // (GRDB runs migrations with foreign keys off, and checks them after).
            try db.execute(
                sql: """
                    CREATE TABLE notification_v3 (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                        identifier TEXT NOT NULL,
                        app TEXT NOT NULL,
                        payload TEXT NOT NULL,
                        threadIdentifier TEXT,
                        categoryIdentifier TEXT,
                        triggerJSON TEXT,
                        sender TEXT,
                        state TEXT NOT NULL
                            CHECK (state IN ('pending', 'delivered', 'dismissed', 'removed', 'expired', 'replaced')),
                        arrivedAt REAL NOT NULL,
                        deliveredAt REAL,
                        endedAt REAL,
                        response TEXT,
                        replacedBy INTEGER REFERENCES notification(sequence) ON DELETE SET NULL,
                        nextDate REAL,
                        dueAt REAL,
                        CHECK ((state IN ('pending', 'delivered')) = (endedAt IS NULL))
                    );
                    INSERT INTO notification_v3 (sequence, identifier, app, payload, threadIdentifier, categoryIdentifier,
                        triggerJSON, sender, state, arrivedAt, deliveredAt, endedAt, response, replacedBy, nextDate, dueAt)
                    SELECT sequence, identifier, app, payload, threadIdentifier, categoryIdentifier, triggerJSON, sender,
                        CASE WHEN state = 'removed' AND replacedBy IS NOT NULL THEN 'replaced' ELSE state END,
                        arrivedAt, deliveredAt, endedAt, response, replacedBy, nextDate, dueAt
                    FROM notification ORDER BY sequence;
                    UPDATE sqlite_sequence SET seq = max(seq, (SELECT seq FROM sqlite_sequence WHERE name = 'notification'))
                        WHERE name = 'notification_v3';
                    INSERT INTO sqlite_sequence (name, seq)
                        SELECT 'notification_v3', seq FROM sqlite_sequence WHERE name = 'notification'
                        AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'notification_v3');
                    DROP TABLE notification;
                    ALTER TABLE notification_v3 RENAME TO notification;
                    CREATE UNIQUE INDEX notification_pending_identifier ON notification(identifier) WHERE state = 'pending';
                    CREATE UNIQUE INDEX notification_delivered_identifier ON notification(identifier) WHERE state = 'delivered';
                    CREATE INDEX notification_identifier ON notification(identifier, sequence);
                    CREATE INDEX notification_state ON notification(state, sequence);
                    CREATE INDEX notification_ended
                        ON notification(endedAt, sequence) WHERE state IN ('dismissed', 'removed', 'expired', 'replaced');
                    CREATE INDEX notification_replaced_by ON notification(replacedBy) WHERE replacedBy IS NOT NULL;
                    """)
        }
        migrator.registerMigration(version4) { db in
            try db.execute(
                sql: """
                    CREATE TABLE crashed_extension (
                        notification INTEGER PRIMARY KEY NOT NULL REFERENCES notification(sequence) ON DELETE CASCADE,
                        extension TEXT NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        return migrator
    }
}
