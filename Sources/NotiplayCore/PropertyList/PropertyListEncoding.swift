// Base64 and ISO 8601 dates for the XML form, without Foundation.

enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The six-bit value of a base64 character, or `nil`.
    static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }

    /// The standard (padded) encoding of `bytes`.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i]
            let b1: UInt8 = i + 1 < bytes.count ? bytes[i + 1] : 0
            let b2: UInt8 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            i += 3
        }
        return out
    }

    enum DecodeError: Error {
        /// The character at this index is not base64 (or follows the padding).
        case invalidCharacter(at: Int)
        /// The data ends part-way through a group: one character too many or too few.
        case truncated
    }

    /// Decodes base64, skipping ASCII whitespace anywhere. Padding is optional, but nothing
    /// but whitespace and `=` may follow it.
    static func decode(_ text: [UInt8]) throws(DecodeError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var group: UInt32 = 0
        var inGroup = 0
        var padding = 0
        for (index, byte) in text.enumerated() {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                continue
            case UInt8(ascii: "="):
                guard inGroup >= 2, inGroup + padding < 4 else { throw .invalidCharacter(at: index) }
                padding += 1
                continue
            default:
                guard padding == 0, let value = sextet(byte) else { throw .invalidCharacter(at: index) }
                group = group << 6 | UInt32(value)
                inGroup += 1
                if inGroup == 4 {
                    out.append(UInt8(truncatingIfNeeded: group >> 16))
                    out.append(UInt8(truncatingIfNeeded: group >> 8))
                    out.append(UInt8(truncatingIfNeeded: group))
                    group = 0
                    inGroup = 0
                }
            }
        }
        switch inGroup {
        case 0: break
        case 2: out.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            out.append(UInt8(truncatingIfNeeded: group >> 10))
            out.append(UInt8(truncatingIfNeeded: group >> 2))
        default: throw .truncated
        }
        return out
    }
}

/// Calendar arithmetic for `<date>`: the proleptic Gregorian calendar, UTC, years 0000–9999.
enum PropertyListDate {
    /// Days from 0000-01-01 to the first of January of `year` (0...10000).
    static func daysBefore(year: Int) -> Int {
        // Year 0 is a leap year; leap years before `year` are those in 0..<year.
        let leaps = (year + 3) / 4 - (year + 99) / 100 + (year + 399) / 400
        return 365 * year + leaps
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// Days before the first of each month in a common year.
    private static let monthStarts = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]

    static func daysIn(month: Int, year: Int) -> Int {
        monthStarts[month] - monthStarts[month - 1] + (month == 2 && isLeap(year) ? 1 : 0)
    }

    /// Days from 0000-01-01 to `year-month-day` (already checked to exist).
    static func days(year: Int, month: Int, day: Int) -> Int {
        daysBefore(year: year) + monthStarts[month - 1] + (month > 2 && isLeap(year) ? 1 : 0) + day - 1
    }

    /// Days from 0000-01-01 to 2001-01-01, the reference date.
    static let referenceDay = daysBefore(year: 2001)

    static let earliest = Double((days(year: 0, month: 1, day: 1) - referenceDay) * 86_400)
    static let latest = Double((days(year: 9999, month: 12, day: 31) - referenceDay) * 86_400 + 86_399)

    enum ParseError: Error {
        case form
        case range(String)
    }

    /// Seconds since 2001-01-01T00:00:00Z for `YYYY-MM-DDTHH:MM:SS[.fraction]Z`.
    static func parse(_ text: [UInt8]) throws(ParseError) -> Double {
        func digits(_ range: Range<Int>) throws(ParseError) -> Int {
            guard range.upperBound <= text.count else { throw .form }
            var value = 0
            for i in range {
                let byte = text[i]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .form }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func expect(_ byte: Character, at index: Int) throws(ParseError) {
            guard index < text.count, text[index] == byte.asciiValue else { throw .form }
        }
        let year = try digits(0..<4)
        try expect("-", at: 4)
        let month = try digits(5..<7)
        try expect("-", at: 7)
        let day = try digits(8..<10)
        try expect("T", at: 10)
        let hour = try digits(11..<13)
        try expect(":", at: 13)
        let minute = try digits(14..<16)
        try expect(":", at: 16)
        let second = try digits(17..<19)
        var index = 19
        var fraction = 0.0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                fraction += Double(text[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { throw .form }
        }
        try expect("Z", at: index)
        guard index + 1 == text.count else { throw .form }
        guard (1...12).contains(month) else { throw .range("month \(month) does not exist") }
        guard (1...daysIn(month: month, year: year)).contains(day) else {
            throw .range("day \(day) does not exist in month \(month) of \(year)")
        }
        guard hour < 24 else { throw .range("hour \(hour) does not exist") }
        guard minute < 60 else { throw .range("minute \(minute) does not exist") }
        guard second < 60 else { throw .range("second \(second) does not exist") }
        let dayNumber = days(year: year, month: month, day: day) - referenceDay
        return Double(dayNumber * 86_400 + hour * 3600 + minute * 60 + second) + fraction
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` for `seconds` since the reference date, rounded to the nearest
    /// whole second and clamped to years 0000–9999 (NaN is written as the reference date).
    static func format(_ seconds: Double) -> String {
        let clamped = seconds.isNaN ? 0 : min(max(seconds.rounded(), earliest), latest)
        let total = Int(clamped) + referenceDay * 86_400
        let dayNumber = total / 86_400  // total >= 0: from 0000-01-01
        var secondOfDay = total % 86_400
        var year = dayNumber * 400 / 146_097
        while year > 0 && daysBefore(year: year) > dayNumber { year -= 1 }
        while daysBefore(year: year + 1) <= dayNumber { year += 1 }
        let dayOfYear = dayNumber - daysBefore(year: year)
        var month = 1
        while month < 12 && days(year: year, month: month + 1, day: 1) - daysBefore(year: year) <= dayOfYear { month += 1 }
        let day = dayOfYear - (days(year: year, month: month, day: 1) - daysBefore(year: year)) + 1
        let hour = secondOfDay / 3600
        secondOfDay %= 3600
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(secondOfDay / 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }
}
