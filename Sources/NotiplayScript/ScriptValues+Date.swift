/// Reading dates: `YYYY-MM-DDTHH:MM[:SS]`, for `serve at` and `send … at`.
extension ScriptValues {
    /// What became of a date's text.
    enum DateReading: Equatable {
        case value(ScriptDate)
        /// Not `YYYY-MM-DDTHH:MM` nor `YYYY-MM-DDTHH:MM:SS`.
        case malformed
        /// A field out of its range: what it must be (`"month must be 01…12"`), its text, and the
        /// scalar offset of its first digit in the text.
        case outOfRange(rule: String, found: String, offset: Int)
    }

    /// Reads `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`, in ASCII digits, with a capital `T`.
    static func date(_ text: String) -> DateReading {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 16 || scalars.count == 19 else { return .malformed }
        let separators: [(Int, Unicode.Scalar)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        for (offset, separator) in separators where offset < scalars.count {
            guard scalars[offset] == separator else { return .malformed }
        }
        /// The field of `width` digits at `offset`, or nil when one is not a digit.
        func field(_ offset: Int, _ width: Int) -> Int? {
            var value = 0
            for scalar in scalars[offset..<(offset + width)] {
                guard let digit = decimalDigit(scalar) else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = field(0, 4), let month = field(5, 2), let day = field(8, 2), let hour = field(11, 2),
            let minute = field(14, 2)
        else { return .malformed }
        let second: Int
        if scalars.count == 19 {
            guard let value = field(17, 2) else { return .malformed }
            second = value
        } else {
            second = 0
        }
        func outOfRange(_ rule: String, _ offset: Int, _ width: Int) -> DateReading {
            .outOfRange(rule: rule, found: String(String.UnicodeScalarView(scalars[offset..<(offset + width)])), offset: offset)
        }
        guard (1970...9999).contains(year) else { return outOfRange("year must be 1970…9999", 0, 4) }
        guard (1...12).contains(month) else { return outOfRange("month must be 01…12", 5, 2) }
        let days = ScriptDate.days(inMonth: month, of: year)
        guard (1...days).contains(day) else {
            return outOfRange("day must be 01…\(days) in \(ScriptDate.monthNames[month - 1]) \(year)", 8, 2)
        }
        guard hour <= 23 else { return outOfRange("hour must be 00…23", 11, 2) }
        guard minute <= 59 else { return outOfRange("minute must be 00…59", 14, 2) }
        guard second <= 59 else { return outOfRange("second must be 00…59", 17, 2) }
        return .value(ScriptDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }
}
