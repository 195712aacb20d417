#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
// SQLite's C API, as GRDB builds against it, to read each column's bytes where SQLite keeps them
// (GRDB's `Row.withUnsafeData` wraps each in a new `Data`, which costs more than the column).
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// The notifications whose sequence is in `range`, newest first, as JSON elements (no brackets)
/// into `elements`, read in `db`'s transaction: what one segment of `history --json` holds.
func writeHistoryElements(
    _ range: ClosedRange<Int64>, db: Database, file: String, into elements: inout JSONArrayWriter
) throws {
    var attachments = NewestAttachmentsFirst(
        try Row.fetchCursor(
            try db.cachedStatement(
                sql: """
                    SELECT notification, name, kind, sha256, byteCount FROM attachment
                    WHERE notification BETWEEN ? AND ? ORDER BY notification DESC, position
                    """),
            arguments: [range.lowerBound, range.upperBound]))
    let statement = try db.cachedStatement(
        sql: "SELECT \(StoredNotification.columns) FROM notification WHERE sequence BETWEEN ? AND ? ORDER BY sequence DESC")
    let rows = try Row.fetchCursor(statement, arguments: [range.lowerBound, range.upperBound])
    while try rows.next() != nil {
        let source = RowJSONSource(statement: statement.sqliteStatement, file: file)
        try elements.append(source.with(attachments: try attachments.take(for: source.jsonSequence())))
    }
}

/// The attachments in the order `history` lists notifications (newest first), taken as the
/// notifications go by: one pass over the table beside the notifications' pass.
struct NewestAttachmentsFirst {
    private let rows: RowCursor
    private var next: (notification: Int64, attachment: StoredAttachment)?

    init(_ rows: RowCursor) {
        self.rows = rows
    }

    /// The attachments of the notification `sequence`, each listed notification asked in turn.
    mutating func take(for sequence: Int64) throws -> [StoredAttachment] {
        var taken: [StoredAttachment] = []
        while true {
            if next == nil {
                guard let row = try rows.next() else { return taken }
                next = (row[0], StoredAttachment(name: row[1], kind: row[2], sha256: row[3], byteCount: row[4]))
            }
            guard let (notification, attachment) = next, notification >= sequence else { return taken }
            if notification == sequence { taken.append(attachment) }
            next = nil
        }
    }
}

/// The current row of a statement selecting ``StoredNotification/columns``, as
/// ``NotificationJSON`` reads it: numbers and texts straight from SQLite's memory, valid until the
/// statement steps again.
struct RowJSONSource: NotificationJSON.Source {
    let statement: OpaquePointer
    let file: String
    var attachments: [StoredAttachment] = []

    func with(attachments: [StoredAttachment]) -> RowJSONSource {
        var source = self
        source.attachments = attachments
        return source
    }

    func jsonSequence() -> Int64 { sqlite3_column_int64(statement, 0) }
    func jsonAttachments() -> [StoredAttachment] { attachments }

    private static let states: [StoredNotification.State] = [.pending, .delivered, .dismissed, .removed, .expired, .replaced]

    func jsonState() throws -> StoredNotification.State {
        let states = Self.states
        let number = Int(sqlite3_column_int64(statement, 8))
        guard number != 0 || sqlite3_column_type(statement, 8) != SQLITE_NULL, states.indices.contains(number) else {
            throw CenterStoreError(.badData, file: file, "holds a notification in a state notiplay does not know")
        }
        return states[number]
    }

    func jsonReplacedBy() -> Int64? {
        let number = sqlite3_column_int64(statement, 13)
        return number == 0 && sqlite3_column_type(statement, 13) == SQLITE_NULL ? nil : number
    }

    func jsonDate(_ moment: NotificationJSON.Moment) -> Date? {
        let column = moment.rawValue
        // NULL reads as 0: its type is asked only then (each call costs as much as the value).
        let seconds = sqlite3_column_double(statement, column)
        guard seconds != 0 || sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    func withJSONText(_ field: NotificationJSON.Text, _ body: (UnsafeRawBufferPointer?) throws -> Void) throws {
        let column = field.rawValue
        // The text before its length, as SQLite asks; no text is NULL, or SQLite out of memory.
        guard let text = sqlite3_column_text(statement, column) else {
            guard sqlite3_column_type(statement, column) == SQLITE_NULL else {
                throw CenterStoreError(.ioError, file: file, "SQLite could not read a notification (out of memory)")
            }
            return try body(nil)
        }
        try body(UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))))
    }
}
