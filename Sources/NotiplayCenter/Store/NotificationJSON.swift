#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON object of one notification, written once for every place it is read from: a
/// ``StoredNotification``, or a database row streamed straight to the output
/// (``CenterStore/writeHistoryJSON(limit:chunkSize:to:)``).
///
/// Keys, in order: `sequence`, `identifier`, `app`, `state`, `sender`, `threadIdentifier`,
/// `categoryIdentifier`, `arrivedAt`, `deliveredAt`, `endedAt`, `nextDate` (a pending request's
/// next date), `dueAt` (when a scheduled one was due: later than `deliveredAt` by more than a
/// second when it was delivered late, missed while the server was down) (UTC, ISO 8601 with
/// milliseconds), `replacedBy`, `attachments` (objects with `name`, `kind`, `sha256`,
/// `byteCount`), `payload`, `trigger` and `response` (the JSON the store was given, as given).
/// Absent values are `null`.
enum NotificationJSON {
    /// The text fields, numbered as the columns of ``StoredNotification/columns``.
    enum Text: Int32 {
        case identifier = 1, app = 2, payload = 3, threadIdentifier = 4, categoryIdentifier = 5, trigger = 6
        case sender = 7, response = 12

        /// The fields written as JSON strings; the others are JSON already and written as they are.
        static let quoted: [Text] = [.identifier, .app, .sender, .threadIdentifier, .categoryIdentifier]
        /// The fields that hold JSON.
        static let json: [Text] = [.payload, .trigger, .response]
    }

    /// The dates, numbered as the columns of ``StoredNotification/columns``.
    enum Moment: Int32 {
        case arrived = 9, delivered = 10, ended = 11, next = 14, due = 15
    }

    /// Where the fields of one notification are read from.
    protocol Source {
        /// The notification's `sequence`.
        func jsonSequence() throws -> Int64
        /// Its state.
        func jsonState() throws -> StoredNotification.State
        /// Its `replacedBy`, if any.
        func jsonReplacedBy() throws -> Int64?
        /// One of its dates, if set.
        func jsonDate(_ moment: Moment) throws -> Date?
        /// Calls `body` with the UTF-8 of a text field, or `nil` when it is absent.
        func withJSONText(_ field: Text, _ body: (UnsafeRawBufferPointer?) throws -> Void) throws
        /// Its attachments.
        func jsonAttachments() throws -> [StoredAttachment]
    }

    /// More room than the object's fixed parts (keys, numbers, dates, `null`s: under 300 bytes
    /// between two texts) take from one reservation to the next: each text is read once, and room
    /// is made for it and this much more as it is read.
    private static let slack = 400

    /// Writes the object for `source` to `out`.
    static func write(_ source: some Source, to out: inout JSONChunkWriter) throws {
        let attachments = try source.jsonAttachments()
        try out.reserve(slack)
        out.raw(#"{"sequence":"#)
        out.integer(try source.jsonSequence())
        out.raw(#","identifier":"#)
        try quoted(.identifier, of: source, to: &out)
        out.raw(#","app":"#)
        try quoted(.app, of: source, to: &out)
        out.raw(#","state":""#)
        switch try source.jsonState() {
        case .pending: out.raw("pending")
        case .delivered: out.raw("delivered")
        case .dismissed: out.raw("dismissed")
        case .removed: out.raw("removed")
        case .expired: out.raw("expired")
        case .replaced: out.raw("replaced")
        }
        out.raw(#"","sender":"#)
        try quoted(.sender, of: source, to: &out)
        out.raw(#","threadIdentifier":"#)
        try quoted(.threadIdentifier, of: source, to: &out)
        out.raw(#","categoryIdentifier":"#)
        try quoted(.categoryIdentifier, of: source, to: &out)
        out.raw(#","arrivedAt":"#)
        out.date(try source.jsonDate(.arrived))
        out.raw(#","deliveredAt":"#)
        out.date(try source.jsonDate(.delivered))
        out.raw(#","endedAt":"#)
        out.date(try source.jsonDate(.ended))
        out.raw(#","nextDate":"#)
        out.date(try source.jsonDate(.next))
        out.raw(#","dueAt":"#)
        out.date(try source.jsonDate(.due))
        out.raw(#","replacedBy":"#)
        if let replacedBy = try source.jsonReplacedBy() { out.integer(replacedBy) } else { out.raw("null") }
        out.raw(#","attachments":["#)
        for (index, attachment) in attachments.enumerated() {
            let texts = attachment.name.utf8.count + attachment.kind.utf8.count + attachment.sha256.utf8.count
            try out.reserve(6 * texts + 100 + slack)
            if index > 0 { out.byte(0x2C) }  // ,
            out.raw(#"{"name":"#)
            quoted(attachment.name, to: &out)
            out.raw(#","kind":"#)
            quoted(attachment.kind, to: &out)
            out.raw(#","sha256":"#)
            quoted(attachment.sha256, to: &out)
            out.raw(#","byteCount":"#)
            out.integer(Int64(attachment.byteCount))
            out.byte(0x7D)
        }
        out.raw(#"],"payload":"#)
        try json(.payload, of: source, to: &out)
        out.raw(#","trigger":"#)
        try json(.trigger, of: source, to: &out)
        out.raw(#","response":"#)
        try json(.response, of: source, to: &out)
        out.byte(0x7D)
    }

    private static func quoted(_ field: Text, of source: some Source, to out: inout JSONChunkWriter) throws {
        try source.withJSONText(field) { utf8 in
            try out.reserve(6 * (utf8?.count ?? 0) + 2 + slack)
            if let utf8 { out.quoted(utf8: utf8) } else { out.raw("null") }
        }
    }

    private static func json(_ field: Text, of source: some Source, to out: inout JSONChunkWriter) throws {
        try source.withJSONText(field) { utf8 in
            try out.reserve(3 * (utf8?.count ?? 0) + slack)
            if let utf8 { out.json(utf8: utf8) } else { out.raw("null") }
        }
    }

    private static func quoted(_ text: String, to out: inout JSONChunkWriter) {
        var text = text
        text.withUTF8 { out.quoted(utf8: UnsafeRawBufferPointer($0)) }
    }
}
