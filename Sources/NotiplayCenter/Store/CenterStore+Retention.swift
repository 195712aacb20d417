#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// Trimming the history, and the attachment files nothing refers to any more.
extension CenterStore {
    /// What ``prune(keepingHistory:olderThan:)`` deleted.
    public struct PruneReport: Sendable, Equatable {
        /// How many ended notifications were deleted.
        public var notifications: Int
        /// How many attachment files were deleted (unreferenced content, and temporary files a
        /// killed process left).
        public var files: Int

        /// Creates a report.
        public init(notifications: Int, files: Int) {
            self.notifications = notifications
            self.files = files
        }
    }

    /// Deletes ended (dismissed or removed) notifications beyond the newest `count`, or that
    /// ended longer than `age` ago, then every attachment file no notification left refers to.
    /// Live notifications are never deleted.
    ///
    /// Ended notifications are ranked by when they ended (then by arrival): the `count` that
    /// ended last are kept, unless older than `age`.
    /// - Parameters:
    ///   - count: How many ended notifications to keep at most (0 keeps none).
    ///   - age: If given, ended notifications that ended longer ago than this are deleted too,
    ///     measured against the store's clock.
    /// - Returns: How many notifications and files were deleted.
    @discardableResult
    public func prune(keepingHistory count: Int, olderThan age: Duration? = nil) throws(CenterStoreError) -> PruneReport {
        var condition = """
            sequence NOT IN (SELECT sequence FROM notification WHERE state IN \(StoreSchema.endedStates)
                ORDER BY endedAt DESC, sequence DESC LIMIT ?)
            """
        var arguments: StatementArguments = [max(0, count)]
        if let age {
            let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) * 1e-18
            condition += " OR endedAt < ?"
            arguments += [now().storedValue - seconds]
        }
        let deleted = try write { db in
            try db.execute(
                sql: "DELETE FROM notification WHERE state IN \(StoreSchema.endedStates) AND (\(condition))",
                arguments: arguments)
            return db.changesCount
        }
        // A second transaction, so the files go only once the rows that named them are gone for
        // good.
        let files = try sweepAttachments()
        return PruneReport(notifications: deleted, files: files)
    }

    /// Deletes the ended (dismissed or removed) notifications with these identifiers from the
    /// history, then the attachment files nothing refers to any more. Live ones are left.
    /// - Returns: How many notifications and files were deleted.
    @discardableResult
    public func forget(identifiers: [String]) throws(CenterStoreError) -> PruneReport {
        let deleted = try write { db in
            var count = 0
            for identifier in Set(identifiers) {
                try db.execute(
                    sql: "DELETE FROM notification WHERE identifier = ? AND state IN \(StoreSchema.endedStates)",
                    arguments: [identifier])
                count += db.changesCount
            }
            return count
        }
        let files = deleted > 0 ? try sweepAttachments() : 0
        return PruneReport(notifications: deleted, files: files)
    }

    /// Deletes the files in `attachments/` that no notification refers to: content whose
    /// notifications were deleted, and what a process killed in the middle of an ``add(_:)``
    /// left (its temporary file, and the files it had renamed into place before its transaction
    /// committed), the last of which only right after a prune (an open sets them aside).
    ///
    /// It holds the write lock, so no `add`, of this process or another, is between writing its
    /// files and committing.
    /// - Returns: How many files were deleted.
    @discardableResult
    func sweepAttachments() throws(CenterStoreError) -> Int {
        try write { db in
            let referenced = try String.fetchSet(db, sql: "SELECT DISTINCT sha256 FROM attachment")
            return try attachments.sweep(keeping: referenced)
        }
    }

    /// Moves the files in `attachments/` that no notification names into
    /// `attachments.orphaned-DATE/` (the store's clock, UTC), deleting only the temporary files of
    /// writes that never finished: what ``open(folder:now:)`` does instead of deleting them, since
    /// it cannot tell content an `add` cut short left from the attachments of a database that lost
    /// its rows.
    ///
    /// It holds the write lock, so no `add`, of this process or another, is between writing its
    /// files and committing.
    /// - Returns: A warning naming the folder, how many files were moved and where; `nil` when
    ///   there were none.
    func setAsideUnnamedAttachments() throws(CenterStoreError) -> CenterStoreWarning? {
        let stamp = Self.stamp(now())
        let moved = try write { db in
            let referenced = try String.fetchSet(db, sql: "SELECT DISTINCT sha256 FROM attachment")
            return try attachments.setAside(keeping: referenced, stamp: stamp)
        }
        guard let moved else { return nil }
        let files = moved.count == 1 ? "1 file" : "\(moved.count) files"
        return CenterStoreWarning(file: attachments.path, """
            \(files) no notification names (the database lost its rows, or a process was killed while adding) \
            moved to \(moved.folder), not deleted: look at them, and delete that folder once they are not needed
            """)
    }

    /// `20261123T101500Z`: `date` in UTC, for a file name.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }
}
