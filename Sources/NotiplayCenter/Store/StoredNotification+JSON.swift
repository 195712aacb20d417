#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NotiplayCore

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
        var s = ""
        appendJSON(to: &s)
        return s
    }

    /// A JSON array of `notifications`, in their order, one object per line.
    public static func jsonArray(_ notifications: [StoredNotification]) -> String {
        var s = "["
        s.reserveCapacity(notifications.count * (320 + (notifications.first?.payload.utf8.count ?? 0)))
        for (index, notification) in notifications.enumerated() {
            s += index == 0 ? "\n" : ",\n"
            notification.appendJSON(to: &s)
        }
        s += notifications.isEmpty ? "]" : "\n]"
        return s
    }

    /// Appends ``jsonText`` to `s`.
    func appendJSON(to s: inout String) {
        s += "{\"sequence\":"
        s += String(sequence)
        s += ",\"identifier\":"
        JSONWriter.appendString(identifier, to: &s)
        s += ",\"app\":"
        JSONWriter.appendString(app, to: &s)
        s += ",\"state\":\""
        s += state.rawValue
        s += "\",\"sender\":"
        Self.append(sender, to: &s)
        s += ",\"threadIdentifier\":"
        Self.append(threadIdentifier, to: &s)
        s += ",\"categoryIdentifier\":"
        Self.append(categoryIdentifier, to: &s)
        s += ",\"arrivedAt\":"
        Self.append(arrivedAt, to: &s)
        s += ",\"deliveredAt\":"
        Self.append(deliveredAt, to: &s)
        s += ",\"endedAt\":"
        Self.append(endedAt, to: &s)
        s += ",\"replacedBy\":"
        s += replacedBy.map { String($0) } ?? "null"
        s += ",\"attachments\":["
        for (index, attachment) in attachments.enumerated() {
            s += index == 0 ? "{\"name\":" : ",{\"name\":"
            JSONWriter.appendString(attachment.name, to: &s)
            s += ",\"kind\":"
            JSONWriter.appendString(attachment.kind, to: &s)
            s += ",\"sha256\":\""
            s += attachment.sha256
            s += "\",\"byteCount\":"
            s += String(attachment.byteCount)
            s += "}"
        }
        s += "],\"payload\":"
        s += payload
        s += ",\"trigger\":"
        s += trigger ?? "null"
        s += ",\"response\":"
        s += response ?? "null"
        s += "}"
    }

    private static func append(_ text: String?, to s: inout String) {
        if let text { JSONWriter.appendString(text, to: &s) } else { s += "null" }
    }

    private static func append(_ date: Date?, to s: inout String) {
        guard let date else {
            s += "null"
            return
        }
        s += "\""
        s += ISO8601Milliseconds.format(date)
        s += "\""
    }
}

/// UTC dates as `YYYY-MM-DDTHH:MM:SS.mmmZ`, written by hand: a hundred thousand of them must
/// take well under a millisecond each.
enum ISO8601Milliseconds {
    /// `date` in UTC, to the millisecond (rounded down). Years outside 0000–9999 are written as
    /// 0000-01-01T00:00:00.000Z or 9999-12-31T23:59:59.999Z.
    static func format(_ date: Date) -> String {
        let lowest = -62_167_219_200_000.0  // 0000-01-01T00:00:00Z in milliseconds
        let highest = 253_402_300_799_999.0  // 9999-12-31T23:59:59.999Z
        let scaled = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let milliseconds = Int64(scaled.isNaN ? 0 : min(max(scaled, lowest), highest))
        let (days, millisecondOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, millisecond) = millisecondOfDay < 0 ? (days - 1, millisecondOfDay + 86_400_000) : (days, millisecondOfDay)
        let (year, month, dayOfMonth) = civil(fromDays: day)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            for _ in 0..<count {
                bytes.append(UInt8(48 + rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(0x2D)
        digits(month, 2)
        bytes.append(0x2D)
        digits(dayOfMonth, 2)
        bytes.append(0x54)
        digits(millisecond / 3_600_000, 2)
        bytes.append(0x3A)
        digits(millisecond / 60_000 % 60, 2)
        bytes.append(0x3A)
        digits(millisecond / 1000 % 60, 2)
        bytes.append(0x2E)
        digits(millisecond % 1000, 3)
        bytes.append(0x5A)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
