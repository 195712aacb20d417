/// A date and time of day as a script writes it (`2026-01-05T09:00`), in the proleptic Gregorian
/// calendar and without a time zone: whoever runs the script reads it in the local zone.
///
/// The parser only makes valid dates: a year from 1970 to 9999, a day that its month has, hours
/// 0…23, minutes and seconds 0…59 (no leap second).
public struct ScriptDate: Sendable, Hashable, CustomStringConvertible {
    /// The year, 1970…9999.
    public var year: Int
    /// The month, 1 (January) … 12.
    public var month: Int
    /// The day of the month, from 1.
    public var day: Int
    /// The hour, 0…23.
    public var hour: Int
    /// The minute, 0…59.
    public var minute: Int
    /// The second, 0…59.
    public var second: Int

    /// The date `year`-`month`-`day` at `hour`:`minute`:`second` (the values are not checked).
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Where `serve` without `at` starts the virtual clock: Monday 5 January 2026, 09:00.
    public static let defaultStart = ScriptDate(year: 2026, month: 1, day: 5, hour: 9, minute: 0)

    /// The day of the week, numbered as Foundation's `Calendar` does: 1 is Sunday, 2 Monday … 7
    /// Saturday.
    public var weekday: Int {
        // Sakamoto's method: January and February count as months of the year before.
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        let index = min(max(month, 1), 12) - 1
        let sunday0 = (y + y / 4 - y / 100 + y / 400 + offsets[index] + day) % 7
        return (sunday0 + 7) % 7 + 1
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
            + "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
    }

    /// The number of days in `month` of `year` (Gregorian leap years).
    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
}
