#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite  // sqlite3_db_readonly, which GRDB does not wrap
#else
import SQLite3
#endif
import NotiplayCore
import NotiplaySystem
import SystemPackage

/// The notification center's durable store: every notification received, live or ended, in an
/// SQLite database (through GRDB, WAL mode), and their attachments' files beside it.
///
/// ## Files
/// In the folder given to ``open(folder:now:)`` (the command line gives
/// `$XDG_STATE_HOME/notiplay/`), made with mode 0700 when missing, made 0700 when others may enter
/// it, and refused when it belongs to another user; every file in it is 0600:
/// - `center.sqlite` (with `-wal` and `-shm` while open): the database, `synchronous = FULL`, so
///   an operation that returned has reached the disk and survives `kill -9` and a power loss.
/// - `attachments/SHA256`: each distinct attachment content once, named by the SHA-256 of its
///   bytes, written, flushed and renamed into place (and the folder flushed) before the
///   transaction that refers to it commits. ``prune(keepingHistory:olderThan:)`` deletes those
///   no notification refers to once it deleted their rows. ``open(folder:now:)`` deletes none:
///   it moves the files no row names (content whose row never committed, or a database that lost
///   its rows) into `attachments.orphaned-DATE/` beside them, with a warning (``warnings``), and
///   deletes only the temporary files of writes that never finished.
/// - `attachments.orphaned-DATE/`: what an open set aside, for a person to look at and delete.
///
/// ``close()`` writes what the `-wal` holds into `center.sqlite` and closes it: a server calls it
/// as it ends, so that the main file alone holds the store.
///
/// ## Schema (version 1, migration `v1: notifications and attachments`)
/// `notification`, one row per notification received, never updated into another one:
/// - `sequence INTEGER PRIMARY KEY AUTOINCREMENT`: the order received, never reused.
/// - `identifier TEXT`: the request's identifier; unique among live rows (a partial unique index
///   over `state IN ('pending', 'delivered')`), repeated in the history.
/// - `app TEXT`, `payload TEXT` (the JSON as received), `threadIdentifier TEXT NULL`,
///   `categoryIdentifier TEXT NULL` (copied out of the payload by the caller), `triggerJSON TEXT NULL`
///   (a pending request's trigger), `sender TEXT NULL`.
/// - `state TEXT`: `pending`, `delivered`, `dismissed` or `removed` (``StoredNotification/State``).
/// - `arrivedAt REAL`, `deliveredAt REAL NULL`, `endedAt REAL NULL`: seconds since 1970 UTC;
///   `endedAt` is set exactly when the state is dismissed or removed.
/// - `response TEXT NULL`: the user's response, JSON.
/// - `replacedBy INTEGER NULL`: for a row replaced by a newer one with the same identifier, that
///   row's `sequence` (set to null if that row is pruned first).
///
/// `attachment`, one row per file attached, deleted with its notification:
/// `notification` (its `sequence`), `position` (0, 1, … in the order given), `name` (the original
/// file name), `kind` (the type identifier given), `sha256` (64 lowercase hex digits, the file's
/// name in `attachments/`), `byteCount`.
///
/// ## Replacement
/// As in Apple's center, adding a notification whose identifier is live (pending or delivered)
/// replaces that one: in the same transaction the old row becomes `removed`, with `endedAt` now
/// and `replacedBy` the new row's `sequence`, and stays in the history.
///
/// ## Concurrency
/// Every operation is one transaction; writes are serialized (by GRDB in this process and by
/// SQLite's lock across processes) and reads see a consistent snapshot beside them. An `add`
/// writes its attachment files inside its transaction, holding the write lock, so `prune` never
/// sees a file whose row is not committed yet. Calls block the calling thread until done.
public final class CenterStore: Sendable {
    /// The store's folder.
    public let folder: String
    /// The database file, `center.sqlite` in ``folder``.
    public let databasePath: String
    let pool: DatabasePool
    let attachments: AttachmentFolder
    let now: @Sendable () -> Date
    /// What opening the store did that its user should hear of: a folder or file others could
    /// read made private, attachment files no notification names moved aside.
    public let warnings: [CenterStoreWarning]

    private init(
        folder: String, databasePath: String, pool: DatabasePool, attachments: AttachmentFolder,
        now: @escaping @Sendable () -> Date, warnings: [CenterStoreWarning] = []
    ) {
        self.folder = folder
        self.databasePath = databasePath
        self.pool = pool
        self.attachments = attachments
        self.now = now
        self.warnings = warnings
    }

    /// Opens the store in `folder`, making the folder (0700) and the database (0600) when
    /// missing, making them private when others may read them, bringing an older schema up to
    /// date, and moving the attachment files no notification names aside (``warnings`` says so).
    /// - Parameters:
    ///   - folder: The store's folder.
    ///   - now: Where the store reads the time it records (arrivals, deliveries, ends) and
    ///     measures ages against; tests pass a clock of their own.
    /// - Throws: ``CenterStoreError`` naming the folder or file: ``CenterStoreError/Kind/cannotCreate``
    ///   when the folder or database cannot be made or written or belongs to another user,
    ///   ``CenterStoreError/Kind/badData``
    ///   when the database is damaged or from a newer notiplay, ``CenterStoreError/Kind/ioError``
    ///   when reading or writing fails.
    public static func open(
        folder: String, now: @escaping @Sendable () -> Date = { Date() }
    ) throws(CenterStoreError) -> CenterStore {
        var folder = folder
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        guard !folder.isEmpty else {
            throw CenterStoreError(.cannotCreate, file: folder, "the store's folder has an empty path")
        }
        try StoreFiles.makeFolder(folder)
        var warnings: [CenterStoreWarning] = []
        if let warning = try StoreFiles.keepPrivate(folder: folder) { warnings.append(warning) }
        let attachments = AttachmentFolder(path: Path.join(folder, "attachments"))
        try StoreFiles.makeFolder(attachments.path)
        if let warning = try StoreFiles.keepPrivate(folder: attachments.path) { warnings.append(warning) }
        let databasePath = Path.join(folder, "center.sqlite")
        // SQLite makes the -wal and -shm with the database's mode: 0600 from the start.
        try StoreFiles.makePrivateFile(databasePath)
        for file in [databasePath, databasePath + "-wal", databasePath + "-shm"] {
            if let warning = try StoreFiles.keepPrivate(file: file) { warnings.append(warning) }
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: databasePath, configuration: configuration)
            // GRDB sets `synchronous = NORMAL` when it turns WAL on, after `prepareDatabase`:
            // set FULL here, on the one writer connection, so a returned write is on the disk.
            try pool.writeWithoutTransaction { db in
                // SQLite opens a file it may not write read-only, and then refuses only the
                // writes: a store left open by a killed process (its -wal and -shm there) on a
                // read-only file system would open, and every `add` fail. Refused here, as a
                // closed one is (opening it needs to write).
                if sqlite3_db_readonly(db.sqliteConnection, "main") == 1 {
                    throw CenterStoreError(
                        .cannotCreate, file: databasePath, "cannot be opened for writing (it or its file system is read-only)")
                }
                try db.execute(sql: "PRAGMA synchronous = FULL")
                let migrator = StoreSchema.migrator
                if try migrator.hasBeenSuperseded(db) {
                    throw CenterStoreError(
                        .badData, file: databasePath,
                        "was written by a newer notiplay (its schema has steps this version does not know)")
                }
            }
            try StoreSchema.migrator.migrate(pool)
        } catch {
            throw CenterStoreError(database: error, file: databasePath)
        }
        try StoreFiles.synchronize(folder: folder)
        let opened = CenterStore(folder: folder, databasePath: databasePath, pool: pool, attachments: attachments, now: now)
        // Files no row names: what a process killed in the middle of an `add` left, or the
        // attachments of a database that lost its rows. Kept, and said.
        if let warning = try opened.setAsideUnnamedAttachments() { warnings.append(warning) }
        return CenterStore(
            folder: folder, databasePath: databasePath, pool: pool, attachments: attachments, now: now, warnings: warnings)
    }

    /// Opens an existing store only to read it (`history` beside a running server, or with none):
    /// nothing is created, migrated or written.
    /// - Returns: The store, or `nil` when `folder` holds no database yet (neither exists).
    /// - Throws: ``CenterStoreError``: ``CenterStoreError/Kind/cannotCreate`` naming the folder
    ///   when it may not be read (no permission, a file in the path), or the database when it may
    ///   not be opened; ``CenterStoreError/Kind/badData`` when the database is damaged or from
    ///   another schema; ``CenterStoreError/Kind/ioError`` when it cannot be read.
    public static func openForReading(folder: String) throws(CenterStoreError) -> CenterStore? {
        let databasePath = Path.join(folder, "center.sqlite")
        do throws(SystemCallError) {
            _ = try Posix.status(of: databasePath)
        } catch let error where error.errno == .noSuchFileOrDirectory {
            return nil  // no store yet: an empty history, not an error
        } catch {
            // Not "no store": a store that cannot be read is said, never shown as empty.
            throw CenterStoreError(error, file: folder, "cannot read the store")
        }
        var configuration = configuration
        configuration.readonly = true
        configuration.prepareDatabase { db in
            // Pages read straight from the mapped file, not copied in by a `pread` each:
            // `history --json` over 100,000 notifications made 10,800 of them.
            try db.execute(sql: "PRAGMA mmap_size = 1073741824")
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: databasePath, configuration: configuration)
            let known = try pool.read { db in try StoreSchema.migrator.appliedIdentifiers(db) }
            guard Set(known) == Set(StoreSchema.migrator.migrations) else {
                throw CenterStoreError(
                    .badData, file: databasePath,
                    "has another schema than this notiplay's (\(known.joined(separator: ", ")))")
            }
        } catch let error as CenterStoreError {
            throw error
        } catch {
            throw CenterStoreError(database: error, file: databasePath, opening: "reading")
        }
        return CenterStore(
            folder: folder, databasePath: databasePath, pool: pool,
            attachments: AttachmentFolder(path: Path.join(folder, "attachments")), now: { Date() })
    }

    /// How every connection is set up.
    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.label = "notiplay.center"
        configuration.foreignKeysEnabled = true
        // Another process writing (a second `serve`) is waited for, not failed at once.
        configuration.busyMode = .timeout(10)
        return configuration
    }

    /// Writes everything the `-wal` holds into `center.sqlite`, empties the `-wal`
    /// (`wal_checkpoint(TRUNCATE)`) and closes the database: what a server does as it ends, so that
    /// the main file alone holds the store and nothing depends on the `-wal` (left empty, or
    /// removed) and `-shm`. Every later call on the store throws.
    /// - Throws: ``CenterStoreError`` naming the database when the checkpoint or the close
    ///   failed (another process reading it kept the checkpoint from finishing for 10 s, say);
    ///   what was written is durable in the `-wal` all the same.
    public func close() throws(CenterStoreError) {
        do {
            try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            try pool.close()
        } catch {
            throw CenterStoreError(database: error, file: databasePath)
        }
    }

    /// Runs `body` in one write transaction, taking SQLite's write lock at once (`IMMEDIATE`),
    /// and maps its failure to a ``CenterStoreError``.
    /// - Parameters:
    ///   - undo: What to do when the transaction is rolled back (`body` threw or the commit
    ///     failed), before GRDB's writer is let go (no other write of this store in this process
    ///     comes between): remove the files `body` made.
    ///   - body: The transaction's work.
    func write<Value>(undo: () -> Void = {}, _ body: (Database) throws -> Value) throws(CenterStoreError) -> Value {
        do {
            return try pool.writeWithoutTransaction { db in
                var value: Value?
                do {
                    try db.inTransaction(.immediate) {
                        value = try body(db)
                        return .commit
                    }
                } catch {
                    undo()
                    throw error
                }
                return value!
            }
        } catch {
            throw CenterStoreError(database: error, file: databasePath)
        }
    }

    /// Runs `body` on a snapshot of the database and maps its failure to a ``CenterStoreError``.
    func read<Value: Sendable>(_ body: @Sendable (Database) throws -> Value) throws(CenterStoreError) -> Value {
        do {
            return try pool.read(body)
        } catch {
            throw CenterStoreError(database: error, file: databasePath)
        }
    }

    /// The journal mode and `synchronous` level of the connection that writes (`wal` and 2,
    /// FULL): what makes a returned write durable, for tests and diagnostics.
    package func durabilitySettings() throws(CenterStoreError) -> (journalMode: String, synchronous: Int) {
        do {
            return try pool.writeWithoutTransaction { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "", try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
            }
        } catch {
            throw CenterStoreError(database: error, file: databasePath)
        }
    }
}
