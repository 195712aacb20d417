internal import NotiplaySystem  // the time zone's offset as the C library knows it

/// A reminder's due date as seconds since 1970 (UTC), read from a payload and written the way
/// seed 000's `DateFormatter` writes it (long date, medium time: `March 14, 2025 at 9:30:00 AM`).
///
/// Own calendar arithmetic (proleptic Gregorian, days from 1970-01-01) keeps the sample on
/// FoundationEssentials, which has no date formatting.
enum DueDate {
    /// The earliest and latest dates accepted: years 1 to 9999.
    static let range: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// Reads `2025-03-14`, `2025-03-14T09:30`, `2025-03-14T09:30:00`, with optional fractional
    /// seconds, then `Z`, `+01:00`, `-0500` or nothing (read as UTC). `nil` for anything else.
    static func parse(_ text: String) -> Double? {
        let chars = Array(text.utf8)
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= chars.count else { return nil }
            var value = 0
            for k in i..<(i + count) {
                let c = chars[k]
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += count
            return value
        }
        func take(_ c: UInt8) -> Bool {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), take(45), let month = digits(2), take(45), let day = digits(2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), year >= 1 else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        if take(84) || take(116) || take(32) {  // T, t or a space
            guard let h = digits(2), take(58), let m = digits(2) else { return nil }
            hour = h
            minute = m
            if take(58) {
                guard let s = digits(2) else { return nil }
                second = s
                if take(46) || take(44) {  // fractional seconds, ignored
                    let start = i
                    while i < chars.count, chars[i] >= 48, chars[i] <= 57 { i += 1 }
                    guard i > start else { return nil }
                }
            }
            guard hour <= 23, minute <= 59, second <= 60 else { return nil }
            if take(90) || take(122) {  // Z
                offset = 0
            } else if i < chars.count, chars[i] == 43 || chars[i] == 45 {  // + or -
                let sign = chars[i] == 45 ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return nil }
                _ = take(58)
                guard let om = digits(2), oh <= 23, om <= 59 else { return nil }
                offset = sign * (oh * 3_600 + om * 60)
            }
        }
        guard i == chars.count else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Double(days) * 86_400 + Double(hour * 3_600 + minute * 60 + second - offset)
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// `March 14, 2025 at 9:30:00 AM` for `seconds` since 1970, shown `utcOffset` seconds east of UTC.
    static func format(_ seconds: Double, utcOffset: Int) -> String {
        guard seconds.isFinite, range.contains(seconds) else { return "an unreadable date" }
        let local = Int64(seconds.rounded(.down)) + Int64(utcOffset)
        var days = local / 86_400
        var rest = local % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        let hour = Int(rest / 3_600)
        let minute = Int(rest % 3_600 / 60)
        let second = Int(rest % 60)
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return "\(monthNames[month - 1]) \(day), \(year) at \(hour12):\(two(minute)):\(two(second)) \(hour < 12 ? "AM" : "PM")"
    }

    /// The local time zone's offset from UTC at `seconds` since 1970, in seconds east.
    static func localOffset(at seconds: Double) -> Int {
        guard seconds.isFinite, range.contains(seconds) else { return 0 }
        return Posix.localTimeOffset(at: Int(seconds.rounded(.down))) ?? 0
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given date. Counts whole 400-year cycles (146,097 days each)
    /// from 0000-03-01, so that the leap day ends a year.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        // Years start on March 1st: January and February belong to the year before.
        let y = Int64(month <= 2 ? year - 1 : year)
        let cycle = (y >= 0 ? y : y - 399) / 400
        let yearOfCycle = y - cycle * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)  // March = 0
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfCycle = yearOfCycle * 365 + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
        return cycle * 146_097 + dayOfCycle - 719_468  // 719,468 days from 0000-03-01 to 1970-01-01
    }

    /// The date `days` after 1970-01-01: the inverse of ``daysSince1970(year:month:day:)``.
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let cycle = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfCycle = z - cycle * 146_097
        let yearOfCycle = (dayOfCycle - dayOfCycle / 1_460 + dayOfCycle / 36_524 - dayOfCycle / 146_096) / 365
        let dayOfYear = dayOfCycle - (365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfCycle + cycle * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
