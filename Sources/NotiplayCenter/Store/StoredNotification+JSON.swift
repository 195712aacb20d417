#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Stored notifications as JSON, for `list --json` and `history --json`.
extension StoredNotification {
    /// The notification as one compact JSON object, keys in this order:
    /// `sequence`, `identifier`, `app`, `state`, `sender`, `threadIdentifier`,
    /// `categoryIdentifier`, `arrivedAt`, `deliveredAt`, `endedAt` (UTC, ISO 8601 with
    /// milliseconds, `2026-11-23T09:41:00.000Z`), `replacedBy`, `attachments` (objects with
    /// `name`, `kind`, `sha256`, `byteCount`), `payload`, `trigger` and `response` (the JSON
    /// the store was given, as it was given: the store accepts only valid JSON for them).
    /// Absent values are `null`.
    public var jsonText: String {
        var bytes: [UInt8] = []
        var out = JSONChunkWriter(chunkSize: 4096) { bytes.append(contentsOf: $0) }
        try! NotificationJSON.write(self, to: &out)  // a stored notification's fields never throw
        try! out.flush()  // and neither does this sink
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON array of `notifications`, in their order, one ``jsonText`` object per line.
    public static func jsonArray(_ notifications: [StoredNotification]) -> String {
        var bytes: [UInt8] = []
        writeJSONArray(notifications) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes ``jsonArray(_:)`` as UTF-8 to `write`, in chunks of about `chunkSize` bytes (a
    /// larger one when one notification needs it), without making the whole text first.
    /// - Parameters:
    ///   - notifications: The notifications, in the order to write them.
    ///   - chunkSize: About how many bytes to hand on at a time.
    ///   - write: Takes each chunk; the bytes are valid only during the call.
    public static func writeJSONArray(
        _ notifications: [StoredNotification], chunkSize: Int = 1 << 20,
        to write: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        // The writer keeps its sink only while this call lasts.
        try withoutActuallyEscaping(write) { write in
            var array = JSONArrayWriter(chunkSize: chunkSize, sink: write)
            do {
                for notification in notifications { try array.append(notification) }
                try array.finish()
            } catch let error as JSONSinkError {
                throw error.underlying
            } catch {
                fatalError("a stored notification's fields never throw: \(error)")
            }
        }
    }
}

/// A stored notification's fields, as ``NotificationJSON`` reads them.
extension StoredNotification: NotificationJSON.Source {
    func jsonSequence() -> Int64 { sequence }
    func jsonState() -> State { state }
    func jsonReplacedBy() -> Int64? { replacedBy }
    func jsonAttachments() -> [StoredAttachment] { attachments }

    func jsonDate(_ moment: NotificationJSON.Moment) -> Date? {
        switch moment {
        case .arrived: arrivedAt
        case .delivered: deliveredAt
        case .ended: endedAt
        case .next: nextDate
        case .due: dueAt
        }
    }

    func withJSONText(_ field: NotificationJSON.Text, _ body: (UnsafeRawBufferPointer?) throws -> Void) rethrows {
        var text: String? =
            switch field {
            case .identifier: identifier
            case .app: app
            case .payload: payload
            case .threadIdentifier: threadIdentifier
            case .categoryIdentifier: categoryIdentifier
            case .trigger: trigger
            case .sender: sender
            case .response: response
            }
        if text == nil { return try body(nil) }
        try text!.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}
